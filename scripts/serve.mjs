// `npm start`: serves the production build behind a plain node:http server that stamps each
// request with its TCP peer address (after deleting any client-sent copy of that header), so the
// rate limit's client address can never be chosen by the client. See server/http/client-ip.ts.
import { createServer } from "node:http";
import next from "next";

const PEER_ADDRESS_HEADER = "x-storefront-peer-address";
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME ?? "0.0.0.0";

const app = next({ dev: false, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((req, res) => {
  delete req.headers[PEER_ADDRESS_HEADER];
  const address = req.socket.remoteAddress ?? "unknown";
  req.headers[PEER_ADDRESS_HEADER] = address.startsWith("::ffff:") ? address.slice(7) : address;
  void handle(req, res);
});
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => {
  console.log(JSON.stringify({ level: 30, msg: `storefront ordering service listening on http://${hostname}:${port}` }));
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 10_000).unref();
  });
}
