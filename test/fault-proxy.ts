import { connect, createServer, type AddressInfo, type Socket } from "node:net";

/**
 * A TCP proxy that puts faults between the service and a real server (Postgres, Redis) without
 * touching the server itself, which other test files share.
 *
 * - `pause()`: a hung server. Connections (new and existing) are accepted and kept, but no byte
 *   moves in either direction; what was sent is held and delivered in order on `restore()`.
 * - `refuse()`: a stopped server. Existing connections are cut, new ones reset at once.
 * - `cutExisting()`: a dying server or a killed backend. Current connections are destroyed; new
 *   ones work.
 * - `delay(ms)`: a slow network. Each chunk waits `ms` before it is forwarded.
 * - `holdAfterRoundTrips(n)`: clients get n more round trips; what they send after that is held (not
 *   forwarded) until `restore()`, while answers still reach them: a statement stuck on its way.
 * - `restore()`: back to a plain pass-through.
 */
export type FaultProxy = {
  readonly host: string;
  readonly port: number;
  /** Connections currently open through the proxy. */
  readonly openConnections: number;
  /** Connections accepted since start (also the reset ones). */
  readonly acceptedConnections: number;
  /**
   * Round trips clients made since start: the chunks a client sent after an answer of its server
   * last reached it (or first on its connection). What a Postgres client writes before an answer
   * comes back, in one chunk or several, is one round trip: it has not waited in between. On
   * loopback an answer can come back within the microseconds a client takes between two writes it
   * did not wait between; `delay` gives the network time a real one has.
   */
  readonly roundTripsFromClients: number;
  pause(): void;
  holdAfterRoundTrips(count: number): void;
  refuse(): void;
  cutExisting(): void;
  delay(ms: number): void;
  restore(): void;
  close(): Promise<void>;
};

type Mode = "pass" | "paused" | "refusing";

/** Chunks of one direction, forwarded one after another so that a delay or a pause keeps their order. */
class Lane {
  private readonly queue: Buffer[] = [];
  private pumping = false;

  constructor(
    private readonly to: Socket,
    private readonly gate: () => Promise<void>,
    private readonly delayMs: () => number,
    private readonly onForwarded: () => void = () => undefined,
  ) {}

  push(chunk: Buffer): void {
    this.queue.push(chunk);
    if (!this.pumping) void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        await this.gate();
        const wait = this.delayMs();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        await this.gate();
        const chunk = this.queue.shift();
        if (chunk && !this.to.destroyed) {
          this.to.write(chunk);
          this.onForwarded();
        }
      }
    } finally {
      this.pumping = false;
    }
  }
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: Mode = "pass";
  let delayMs = 0;
  let accepted = 0;
  let roundTripsFromClients = 0;
  let released: () => void = () => undefined;
  let unpaused: Promise<void> = Promise.resolve();
  /** The round trip from which clients' chunks are held (holdAfterRoundTrips), and what frees them. */
  let holdFrom = Number.POSITIVE_INFINITY;
  let unheld: { promise: Promise<void>; resolve: () => void } | undefined;
  const pairs = new Set<[Socket, Socket]>();

  const gate = () => (mode === "paused" ? unpaused : Promise.resolve());
  const upstreamGate = () => (unheld && roundTripsFromClients >= holdFrom ? unheld.promise.then(gate) : gate());

  const server = createServer((client) => {
    accepted += 1;
    if (mode === "refusing") {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const toUpstream = new Lane(upstream, upstreamGate, () => delayMs);
    // A client's round trip ends when the server's answer reaches it, which `delay` puts off.
    let answered = true;
    const toClient = new Lane(client, gate, () => delayMs, () => (answered = true));
    client.on("data", (chunk: Buffer) => {
      if (answered) roundTripsFromClients += 1;
      answered = false;
      toUpstream.push(chunk);
    });
    upstream.on("data", (chunk: Buffer) => toClient.push(chunk));
    const teardown = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    // A closed side closes the other at once, even while paused: a hung server keeps its sockets open, so nothing closes then.
    client.on("close", teardown);
    upstream.on("close", teardown);
    client.on("error", teardown);
    upstream.on("error", teardown);
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const cutExisting = () => {
    for (const [client, upstream] of pairs) {
      client.resetAndDestroy();
      upstream.destroy();
    }
    pairs.clear();
  };

  const release = () => {
    released();
    unpaused = Promise.resolve();
    holdFrom = Number.POSITIVE_INFINITY;
    unheld?.resolve();
    unheld = undefined;
  };

  return {
    host: "127.0.0.1",
    port,
    get openConnections() {
      return pairs.size;
    },
    get acceptedConnections() {
      return accepted;
    },
    get roundTripsFromClients() {
      return roundTripsFromClients;
    },
    pause() {
      if (mode === "paused") return;
      mode = "paused";
      unpaused = new Promise<void>((resolve) => (released = resolve));
    },
    holdAfterRoundTrips(count: number) {
      holdFrom = roundTripsFromClients + count + 1;
      let resolve: () => void = () => undefined;
      const promise = new Promise<void>((done) => (resolve = done));
      unheld = { promise, resolve };
    },
    refuse() {
      release();
      mode = "refusing";
      cutExisting();
    },
    cutExisting,
    delay(ms: number) {
      delayMs = Math.max(0, ms);
    },
    restore() {
      delayMs = 0;
      mode = "pass";
      release();
    },
    async close() {
      mode = "refusing";
      release();
      cutExisting();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
