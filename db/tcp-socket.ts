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
 * declarations. With it the driver does not connect the socket itself: this opens it, to the URL's
 * hosts in turn as the driver would, and the driver's TLS upgrade and timeouts apply as before.
 */
export function tcpNoDelaySockets(): { socket: (target: SocketTarget) => Socket } {
  let attempt = 0;
  return {
    socket: ({ host, port, path }) => {
      if (path) return connect({ path });
      const index = attempt % Math.max(1, host.length);
      attempt += 1;
      return connect({ host: host[index] ?? "127.0.0.1", port: port[index] ?? port[0] ?? 5432, noDelay: true });
    },
  };
}
