import { connect, type Socket } from "node:net";

/** What the `postgres` driver passes its `socket` option: the hosts and ports of the URL, or a Unix socket path. */
export type SocketTarget = { host: string[]; port: number[]; path?: string | false | undefined };

/**
 * The `postgres` driver's connections, opened with TCP_NODELAY. The driver leaves Nagle's algorithm
 * on (postgres 3.4.9 never calls setNoDelay; libpq turns it off), and the service writes a batch it
 * does not wait between in two pieces whenever the batch passes the driver's 1 KB write threshold:
 * a stored answer, then the COMMIT that goes with it (db/last-statement.ts). With Nagle on, the
 * second piece waits until Postgres acknowledges the first, which it does with its answer: the
 * round trip the pipelining saved is spent again (test/after-build/round-trips.test.ts shows it).
 *
 * The driver's `socket` option is public (its README, "Custom socket") but missing from its type
 * declarations. With it the driver does not connect the socket itself, so this does what its own
 * connect does besides: `host` and `port` on the socket (TLS sends the host as SNI, which Neon's
 * endpoints route by; error messages name them). The driver's TLS upgrade and connect_timeout apply
 * as before. For a URL with several hosts the driver's own sockets are used (`forUrl`): it tries them
 * in order per connection, which a factory shared by the pool cannot know.
 */
export function tcpNoDelaySockets(): { socket: (target: SocketTarget) => Socket } {
  return {
    socket: ({ host, port, path }) => {
      const socket = path ? connect({ path }) : connect({ host: host[0] ?? "127.0.0.1", port: port[0] ?? 5432, noDelay: true });
      if (!path) Object.assign(socket, { host: host[0], port: port[0] });
      holdEarlyErrors(socket);
      return socket;
    },
  };
}

/** The driver's sockets with TCP_NODELAY for a one-host URL (postgres-js option spread), its own for a multi-host one. */
export function noDelaySocketsFor(url: string): ReturnType<typeof tcpNoDelaySockets> | Record<string, never> {
  return /^[a-z]+:\/\/(?:[^@/?#]*@)?[^/?#]*,/i.test(url) ? {} : tcpNoDelaySockets();
}

/**
 * The driver listens for the socket's errors only once the factory's result has been awaited, and a
 * connect that fails at once (an unreachable network) reports it before then: an 'error' event with
 * no listener ends the process. Such an error is held and emitted again a moment later, to the
 * driver's listener; later errors go straight to it.
 */
function holdEarlyErrors(socket: Socket): void {
  // Emitted to every listener at once: held only when this was the only one (`once` has removed it by now).
  const hold = (error: Error) => {
    if (socket.listenerCount("error") === 0) setImmediate(() => socket.emit("error", error));
  };
  socket.once("error", hold);
  setImmediate(() => socket.off("error", hold));
}
