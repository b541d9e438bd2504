import { createDevOutboxHandler } from "../server/http/dev-outbox";
import { GET as openApiDocumentRoute } from "../app/api/v1/storefront/openapi.json/route";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import type { DatabaseHandle } from "../db/client";
import { migrate, openPglite, openPostgres } from "../db/open";
import { seedDemoData } from "../db/seed";
import type { AppDeps } from "../server/app/deps";
import { parseEnv, type Env } from "../server/env";
import { buildIntegrations } from "../server/app/container";
import { createRestHandler, REST_PREFIX } from "../server/http/rest-handler";
import { createRpcHandler } from "../server/http/rpc-handler";
import { createJobsHandler } from "../server/jobs/http";
import { createStripeWebhookHandler } from "../server/webhooks/stripe";
import { startServer, waitUntilReady } from "./after-build/servers";
import { declarePeerAddressStamping, PEER_ADDRESS_HEADER } from "../server/http/client-ip";
import { inject } from "vitest";
import { ADMIN_URL, databaseUrl } from "./postgres-template";
import { openApiValidator } from "./openapi-validator";
import { recordSecretHeaders, recordSecretsIn } from "./secrets";

export const HARBOR = { merchantSlug: "harbor-kitchen", locationId: "loc_harbor_kitchen_downtown", slug: "harbor-kitchen-downtown" };
export const DUNE = { merchantSlug: "dune-grill", locationId: "loc_dune_grill_marina", slug: "dune-grill-marina" };

export type TestDatabaseKind = "pglite" | "postgres";
export const databaseKind: TestDatabaseKind = process.env.TEST_DATABASE === "postgres" ? "postgres" : "pglite";

const databaseUrls = new WeakMap<DatabaseHandle, string>();
/** The connection URL of a Postgres test database made by openTestDatabase (the production target's server connects to it too). */
export function databaseUrlOf(database: DatabaseHandle): string | undefined {
  return databaseUrls.get(database);
}

export type TestDatabaseOptions = {
  /** Postgres only: connect through this address (a fault proxy in front of the server) instead of the server's own. */
  via?: { host: string; port: number };
  /** Postgres only: pool and timeout settings replacing the test defaults. */
  settings?: Partial<Parameters<typeof openPostgres>[1]>;
};

/** A fresh, migrated and seeded database for one test file. */
export async function openTestDatabase(kind: TestDatabaseKind = databaseKind, options: TestDatabaseOptions = {}): Promise<DatabaseHandle> {
  if (kind === "pglite") {
    const handle = await openPglite("memory://");
    await migrate(handle);
    await seedDemoData(handle.db);
    return handle;
  }
  const run = inject("postgresRun");
  const name = `${run.prefix}_${randomBytes(6).toString("hex")}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create database ${name} template ${run.template}`);
  await admin.end();
  const url = new URL(databaseUrl(name));
  if (options.via) {
    url.hostname = options.via.host;
    url.port = String(options.via.port);
  }
  const handle = await openPostgres(url.toString(), {
    DATABASE_POOL_MAX: 20,
    DATABASE_PREPARE: true,
    DATABASE_CONNECT_TIMEOUT_SECONDS: 5,
    DATABASE_STATEMENT_TIMEOUT_MS: 15_000,
    ...options.settings,
  });
  const opened: DatabaseHandle = {
    ...handle,
    close: async () => {
      await handle.close();
      const cleanup = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
      await cleanup.unsafe(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
  databaseUrls.set(opened, databaseUrl(name));
  return opened;
}

export type TestApp = {
  /** Where the requests go: this process's handlers over the source, or `npm start` serving the production build. */
  target: TestTarget;
  /**
   * The dependencies over the service's database, for setting up and reading back state. With the
   * production target they are this process's own over the same database: the server has its own.
   */
  deps: AppDeps;
  env: Env;
  /** Moves the clock the service sees (the production target sends it as X-Test-Clock). */
  clock: { now: Date };
  /** A REST operation, by its path under the API prefix; the answer is checked against the OpenAPI document. */
  call: (method: string, path: string, options?: CallOptions) => Promise<TestResponse>;
  /** Any route of the service by its full path (`/api/trpc/...`, `/api/webhooks/stripe`, `/api/jobs/...`), as a client sends it. */
  fetch: (request: Request) => Promise<Response>;
  close: () => Promise<void>;
};

export type CallOptions = {
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  ip?: string;
  /**
   * Every response is checked against the OpenAPI document (test/openapi-validator.ts) and a
   * mismatch fails the calling test. Only a deliberately undocumented call may opt out, with a
   * comment saying why.
   */
  skipResponseValidation?: boolean;
};
export type TestResponse = { status: number; headers: Headers; body: unknown; text: string };

export type TestAppOptions = {
  env?: Record<string, string>;
  database?: DatabaseHandle;
  /**
   * Replaces dependencies built from env (e.g. a courier or payment fake). In-process only: a test
   * file that needs one cannot run against the production build (vitest.after-build.config.ts).
   */
  overrides?: (deps: AppDeps) => Partial<AppDeps>;
};

/**
 * `production` (TEST_TARGET=production, set by the production-build project of
 * vitest.after-build.config.ts): the same tests through HTTP against `npm start` serving the
 * `next build` output, on real Postgres, because the bundle is not the source.
 */
export type TestTarget = "in-process" | "production";
export const testTarget: TestTarget = process.env.TEST_TARGET === "production" ? "production" : "in-process";

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  if (testTarget === "production" && options.overrides) {
    throw new Error("dependency overrides need the in-process app: leave this file out of the production-build project");
  }
  // `call` stands in for scripts/serve.mjs: it sets the peer address header on every request.
  declarePeerAddressStamping();
  const configured = { CLIENT_IP_SOURCE: "socket", RATE_LIMIT_MAX: "100000", ...options.env };
  const env = parseEnv({ NODE_ENV: "test", ...(testTarget === "production" ? productionTestEnv(configured) : configured) });
  const database = options.database ?? (await openTestDatabase());
  const clock = { now: new Date() };
  const now = () => clock.now;
  const built: AppDeps = { env, database, ...(await buildIntegrations(env, now)), now };
  const deps: AppDeps = { ...built, ...options.overrides?.(built) };
  const transport = testTarget === "production" ? await productionTransport(configured, database, clock) : inProcessTransport(deps);

  async function call(method: string, path: string, callOptions: CallOptions = {}): Promise<TestResponse> {
    const headers = new Headers(callOptions.headers);
    headers.set(PEER_ADDRESS_HEADER, callOptions.ip ?? "203.0.113.10");
    let body: string | undefined = callOptions.rawBody;
    if (callOptions.body !== undefined) {
      body = JSON.stringify(callOptions.body);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
    }
    const request = new Request(`http://localhost${REST_PREFIX}${path}`, { method, headers, body });
    const response = await transport.fetch(request);
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    // Every credential a test sends or receives, for the log scan at the end of the run (test/secrets.ts).
    recordSecretHeaders(headers);
    recordSecretHeaders(response.headers);
    recordSecretsIn(callOptions.body);
    recordSecretsIn(parsed);
    if (!callOptions.skipResponseValidation) {
      // Validated against the path the service saw: the URL parser resolves `..` and percent-encodes.
      const url = new URL(request.url);
      const seen = url.pathname.startsWith(`${REST_PREFIX}/`) ? url.pathname.slice(REST_PREFIX.length) + url.search : url.pathname;
      openApiValidator().assertDocumented({ method, path: seen, status: response.status, headers: response.headers, text });
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  return {
    target: testTarget,
    deps,
    env,
    clock,
    call,
    fetch: (request) => transport.fetch(request),
    close: async () => {
      await transport.close();
      await deps.rateLimiter.close?.();
      if (!options.database) await database.close();
    },
  };
}

type Transport = { fetch: (request: Request) => Promise<Response>; close: () => Promise<void> };

/** Each route's handler over `deps`, dispatched by path as the app's route files do. */
function inProcessTransport(deps: AppDeps): Transport {
  const getDeps = () => Promise.resolve(deps);
  const rest = createRestHandler(getDeps);
  const rpc = createRpcHandler(getDeps);
  const webhook = createStripeWebhookHandler(getDeps);
  const jobs = createJobsHandler(getDeps);
  const outbox = createDevOutboxHandler(getDeps);
  return {
    fetch: (request) => {
      const { pathname } = new URL(request.url);
      if (pathname.startsWith("/api/trpc/")) return rpc(request);
      if (pathname === "/api/webhooks/stripe") return webhook(request);
      if (pathname.startsWith("/api/jobs/")) return jobs(request, decodeURIComponent(pathname.slice("/api/jobs/".length)));
      if (pathname === "/api/dev/outbox") return outbox(request);
      // The document's own route file: a static segment that takes precedence over the REST catch-all.
      if (pathname === `${REST_PREFIX}/openapi.json`) return Promise.resolve(openApiDocumentRoute(request));
      return rest(request);
    },
    close: () => Promise.resolve(),
  };
}

/** The production server's configuration for a test app: what the in-process app would run with, on Postgres, with the test clock. */
function productionTestEnv(configured: Record<string, string>): Record<string, string> {
  return {
    // Tests change the catalog behind the service's back; the server's memory must not hide that.
    RESPONSE_CACHE_TTL_MS: "0",
    AUTH_SECRET: PRODUCTION_TEST_SECRET,
    // A production start on Postgres without SMTP turns sign-in off; the tests read codes from the outbox.
    DEV_OUTBOX: "true",
    // Likewise without STRIPE_SECRET_KEY it would refuse to start; the tests pay with Stripe's test cards.
    SIMULATED_PAYMENTS: "true",
    // Which of npm start's two mounts of the REST API answers (the production-build-next-mount project runs a share of the suite through Next's).
    REST_MOUNT: process.env.TEST_REST_MOUNT ?? "direct",
    ...configured,
    TEST_CLOCK_CONTROL: "true",
  };
}
const PRODUCTION_TEST_SECRET = "production-build-test-secret-0123456789";

/** `npm start` over the test's database: requests go to it over HTTP, stamped with the test's clock. */
async function productionTransport(configured: Record<string, string>, database: DatabaseHandle, clock: { now: Date }): Promise<Transport> {
  const url = databaseUrlOf(database);
  if (!url) throw new Error("the production target needs a Postgres test database (openTestDatabase on TEST_DATABASE=postgres)");
  const server = await startServer("production-target", { ...productionTestEnv(configured), DATABASE_URL: url });
  try {
    await waitUntilReady(server);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    fetch: async (request) => {
      const { pathname, search } = new URL(request.url);
      const headers = new Headers(request.headers);
      headers.set("x-test-clock", clock.now.toISOString());
      const body = request.body ? await request.arrayBuffer() : undefined;
      return fetch(`${server.url}${pathname}${search}`, { method: request.method, headers, body, redirect: "manual" });
    },
    close: () => server.stop(),
  };
}

let keyCounter = 0;
/** A fresh, valid Idempotency-Key. */
export function idemKey(): string {
  keyCounter += 1;
  return `test-key-${Date.now()}-${keyCounter}-${randomBytes(4).toString("hex")}`;
}

type Json = Record<string, unknown>;

/**
 * What a client keeps for a cart: its id, credential and ETag. `token` is the cart capability of a
 * guest cart; a signed-in customer's cart has none (empty) and `bearer` holds the customer token.
 */
export type CartHandle = { cartId: string; token: string; etag: string; cart: Json & { id: string }; locationId: string; bearer?: string };

/** The credential header of a cart handle: its capability, or the owner's bearer token. */
export function cartCredential(handle: Pick<CartHandle, "token" | "bearer">): Record<string, string> {
  return handle.bearer ? { Authorization: `Bearer ${handle.bearer}` } : { "X-Cart-Token": handle.token };
}

/** Starts an ordering session and returns what a client keeps: cart id, token and ETag. */
export async function startCart(app: TestApp, locationId = HARBOR.locationId, fulfillmentMethod = "takeout"): Promise<CartHandle> {
  const response = await app.call("POST", `/locations/${locationId}/ordering-sessions`, {
    headers: { "Idempotency-Key": idemKey() },
    body: { fulfillmentMethod },
  });
  if (response.status !== 201) throw new Error(`ordering session failed: ${response.status} ${response.text}`);
  const body = response.body as { cart: Json & { id: string }; cartAccessToken: string };
  return { cartId: body.cart.id, token: body.cartAccessToken, etag: response.headers.get("etag") ?? "", cart: body.cart, locationId };
}

/** Sends a cart mutation with the handle's token, current ETag and a fresh key; updates the ETag on success. */
export async function mutate(app: TestApp, handle: CartHandle, method: string, suffix: string, body?: unknown, extraHeaders: Record<string, string> = {}) {
  const response = await app.call(method, `/locations/${handle.locationId}/carts/${handle.cartId}${suffix}`, {
    headers: { ...cartCredential(handle), "If-Match": handle.etag, "Idempotency-Key": idemKey(), ...extraHeaders },
    body,
  });
  if (response.status === 200) handle.etag = response.headers.get("etag") ?? handle.etag;
  return response;
}
