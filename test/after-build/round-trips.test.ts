import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startFaultProxy, type FaultProxy } from "../fault-proxy";
import { recordSecret } from "../secrets";
import { ownDatabase, startServer, waitUntilReady, type Server } from "./servers";

/**
 * The production build sends a write's first read with the Idempotency-Key's claim
 * (server/services/read-ahead.ts): the kind that sends it and the use case that takes it share one
 * copy of the module in the bundle, or the read would be sent twice and nothing saved. The stored
 * answer goes with the COMMIT (db/last-statement.ts), and BEGIN with the first statements (the driver as
 * patched at install, patches/postgres+3.4.9.patch: the build loads it from node_modules, as
 * next.config.ts's serverExternalPackages says). Each server (the direct mount and the Next
 * mount) talks to Postgres over one connection through a proxy that counts its round trips: what it
 * writes before Postgres answers it is one.
 */
const REST = "/api/v1/storefront";
const HARBOR = "loc_harbor_kitchen_downtown";
const chowder = { productId: "prd_hk_clam_chowder", quantity: 1, selections: [{ modifierGroupId: "mg_hk_clam_chowder_size", optionId: "opt_hk_clam_chowder_bowl" }], itemUnavailableAction: "remove_item" };

type Mounted = { server: Server; proxy: FaultProxy };
const mounts: Record<"direct" | "next", Mounted | undefined> = { direct: undefined, next: undefined };
let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;

beforeAll(async () => {
  database = await ownDatabase("round_trips", inject("postgresRun"));
  const upstream = new URL(database.url);
  for (const mount of ["direct", "next"] as const) {
    const proxy = await startFaultProxy({ host: upstream.hostname, port: Number(upstream.port || 5432) });
    const url = new URL(database.url);
    url.host = `${proxy.host}:${proxy.port}`;
    const server = await startServer(`round-trips-${mount}`, { DATABASE_URL: url.toString(), DATABASE_POOL_MAX: "1", REST_MOUNT: mount, LOG_LEVEL: "warn", SIMULATED_PAYMENTS: "true" });
    mounts[mount] = { server, proxy };
    await waitUntilReady(server);
  }
});

afterAll(async () => {
  for (const mounted of Object.values(mounts)) {
    await mounted?.server.stop();
    await mounted?.proxy.close();
  }
  await database?.drop();
});

const key = () => `round-trips-${randomBytes(12).toString("hex")}`;

async function call(server: Server, method: string, path: string, headers: Record<string, string>, body: unknown) {
  const response = await fetch(`${server.url}${REST}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  return { status: response.status, etag: response.headers.get("etag") ?? "", text: await response.text() };
}

describe.each(["direct", "next"] as const)("npm start, %s mount, one Postgres connection", (mount) => {
  it("opens a cart, adds an item and replays it in 2 round trips each, BEGIN going with the first statements and the replay answered before its COMMIT", async () => {
    const mounted = mounts[mount];
    if (!mounted) throw new Error("server not started");
    const { server, proxy } = mounted;
    // A replay answers before its COMMIT has gone (below), so a request's round trips are counted
    // once the connection is free again: the readiness check's ping waits for it (one connection),
    // and its own round trip is taken off.
    const ready = async () => {
      const response = await fetch(`${server.url}/api/ready`, { signal: AbortSignal.timeout(20_000) });
      expect(response.status).toBe(200);
    };
    // 5 ms each way, as to a database across a network: an answer does not come back while the
    // server is still writing what it did not wait for.
    const roundTrips = async <T>(run: () => Promise<T>) => {
      const before = proxy.roundTripsFromClients;
      proxy.delay(5);
      try {
        const result = await run();
        await ready();
        return { result, roundTrips: proxy.roundTripsFromClients - before - 1 };
      } finally {
        proxy.restore();
      }
    };
    await ready();
    const openCart = () => call(server, "POST", `/locations/${HARBOR}/ordering-sessions`, { "Idempotency-Key": key() }, { fulfillmentMethod: "takeout" });
    // The first of each statement is prepared on the connection (a round trip more): warm up.
    const warm = await openCart();
    expect(warm.status, warm.text).toBe(201);
    const warmCart = JSON.parse(warm.text) as { cart: { id: string }; cartAccessToken: string };
    recordSecret("token", warmCart.cartAccessToken);
    const warmHeaders = { "X-Cart-Token": warmCart.cartAccessToken, "If-Match": warm.etag, "Idempotency-Key": key() };
    const warmAdd = () => call(server, "POST", `/locations/${HARBOR}/carts/${warmCart.cart.id}/items`, warmHeaders, chowder);
    expect((await warmAdd()).status).toBe(200);
    expect((await warmAdd()).status).toBe(200);
    await ready();
    // The readiness ping alone is one round trip (what roundTrips takes off).
    const before = proxy.roundTripsFromClients;
    await ready();
    expect(proxy.roundTripsFromClients - before).toBe(1);

    const opened = await roundTrips(openCart);
    expect(opened.result.status, opened.result.text).toBe(201);
    const cart = JSON.parse(opened.result.text) as { cart: { id: string }; cartAccessToken: string };
    recordSecret("token", cart.cartAccessToken);
    const headers = { "X-Cart-Token": cart.cartAccessToken, "If-Match": opened.result.etag, "Idempotency-Key": key() };
    const add = () => call(server, "POST", `/locations/${HARBOR}/carts/${cart.cart.id}/items`, headers, chowder);
    const added = await roundTrips(add);
    expect(added.result.status, added.result.text).toBe(200);
    const replayed = await roundTrips(add);
    expect(replayed.result.text).toBe(added.result.text);
    expect({ opened: opened.roundTrips, added: added.roundTrips, replayed: replayed.roundTrips }).toEqual({ opened: 2, added: 2, replayed: 2 });

    // A replay is answered once its claim, sent with BEGIN, has found the stored answer: its second
    // round trip, the COMMIT of a transaction that wrote nothing, is held here and not waited for.
    proxy.holdAfterRoundTrips(1);
    let released = false;
    const fallback = setTimeout(() => {
      released = true;
      proxy.restore();
    }, 10_000);
    try {
      const answered = await add();
      expect(answered.text).toBe(added.result.text);
      expect(released, "the replay waited for its COMMIT").toBe(false);
    } finally {
      clearTimeout(fallback);
      proxy.restore();
    }
  });
});
