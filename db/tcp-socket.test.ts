import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { noDelaySocketsFor, tcpNoDelaySockets } from "./tcp-socket";

/** A server that counts the connections it accepts and what arrives on them. */
function listening(listen: (server: Server, ready: () => void) => void): Promise<{ server: Server; accepted: string[] }> {
  const accepted: string[] = [];
  const server = createServer((socket) => socket.on("data", (chunk: Buffer) => accepted.push(chunk.toString())));
  return new Promise((resolve) => listen(server, () => resolve({ server, accepted })));
}

const tcpServer = () => listening((server, ready) => server.listen(0, "127.0.0.1", ready));
const portOf = (server: Server) => (server.address() as { port: number }).port;

const opened: Socket[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const socket of opened.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Writes before the connection is up, as the driver does (its startup message), and waits until it arrives. */
async function send(socket: Socket, text: string, accepted: string[]): Promise<void> {
  opened.push(socket);
  socket.write(text);
  for (let attempt = 0; attempt < 200 && !accepted.includes(text); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe("tcpNoDelaySockets", () => {
  it("connects to the host, names it on the socket as the driver does (TLS sends it as SNI), and delivers what was written while connecting", async () => {
    const tcp = await tcpServer();
    servers.push(tcp.server);
    const { socket } = tcpNoDelaySockets();
    const opened = socket({ host: ["127.0.0.1"], port: [portOf(tcp.server)] }) as Socket & { host?: string; port?: number };
    expect({ host: opened.host, port: opened.port }).toEqual({ host: "127.0.0.1", port: portOf(tcp.server) });
    await send(opened, "startup", tcp.accepted);
    expect(tcp.accepted).toEqual(["startup"]);
  });

  it("gives an error reported before the driver listened to the listener it attaches after awaiting the socket", async () => {
    const tcp = await tcpServer();
    servers.push(tcp.server);
    const { socket } = tcpNoDelaySockets();
    const opened = socket({ host: ["127.0.0.1"], port: [portOf(tcp.server)] });
    opened.emit("error", new Error("reported during connect"));
    opened.destroy();
    const received = await Promise.resolve(opened).then((ready) => new Promise<Error>((resolve) => ready.once("error", resolve)));
    expect(received.message).toBe("reported during connect");
  });

  it("connects to a Unix socket path when the URL names one", async () => {
    const folder = mkdtempSync(join(tmpdir(), "tcp-socket-"));
    try {
      const path = join(folder, ".s.PGSQL.5432");
      const unix = await listening((server, ready) => server.listen(path, ready));
      servers.push(unix.server);
      const { socket } = tcpNoDelaySockets();
      await send(socket({ host: ["localhost"], port: [5432], path }), "over the path", unix.accepted);
      expect(unix.accepted).toEqual(["over the path"]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("noDelaySocketsFor", () => {
  it("opens one-host URLs' sockets itself, and leaves a multi-host URL's to the driver, which tries its hosts in order", () => {
    expect(Object.keys(noDelaySocketsFor("postgres://user:pw@db.example.com:5432/shop"))).toEqual(["socket"]);
    expect(Object.keys(noDelaySocketsFor("postgres://user:pw@primary:5432,standby:5432/shop"))).toEqual([]);
  });
});
