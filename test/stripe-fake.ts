import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { LedgerError, PaymentIntentLedger, type LedgerIntent } from "../server/integrations/payments/ledger";

/**
 * A local HTTP fake of Stripe's PaymentIntents API (127.0.0.1, a free port), so the real `stripe`
 * SDK is exercised offline: form-encoded bodies, the Idempotency-Key header, expand[], Stripe's
 * error bodies and status codes. The state machine is the simulated processor's ledger, so the
 * two processors are held to the same behaviour.
 *
 * POST /v1/payment_intents, POST /v1/payment_intents/:id, GET /v1/payment_intents/:id,
 * POST /v1/payment_intents/:id/{confirm,capture,cancel}; saved cards: POST /v1/customers,
 * GET /v1/payment_methods?customer=..., GET /v1/payment_methods/:id, POST /v1/payment_methods/:id/detach.
 */
export type RecordedRequest = { method: string; path: string; idempotencyKey: string | undefined; body: Record<string, unknown> };

/**
 * `status`: the next matching request answers `status`. Without `kept`, it runs nothing and the fake
 * keeps nothing (a refusal before the endpoint ran, or a proxy in front). With `kept`, it is a server
 * error once the endpoint began, which Stripe keeps under the request's Idempotency-Key and answers
 * to every later request with that key (docs.stripe.com/api/idempotent_requests): "before" the
 * request did anything, "after" it did its work (the intent moved) and the answer was still an error.
 * A kept error says so as Stripe does: `Stripe-Should-Retry: false`, and `Idempotent-Replayed: true` on replays.
 * `error` sets the error body's type and code (e.g. Stripe's 409 `idempotency_error` / `idempotency_key_in_use`).
 */
type Fault =
  | { method: string; path: RegExp; kind: "status"; status: number; kept?: "before" | "after"; error?: { type: string; code?: string } }
  | { method: string; path: RegExp; kind: "delay"; delayMs: number };

export type FakeStripe = {
  url: string;
  ledger: PaymentIntentLedger;
  requests: RecordedRequest[];
  /** The next request matching method and path answers `status` (see Fault), or is held for `delayMs` first. */
  inject: (fault: Fault) => void;
  close: () => Promise<void>;
};

export const FAKE_STRIPE_KEY = "sk_test_fake_storefront_0000000000";

export async function startFakeStripe(clock: () => Date = () => new Date()): Promise<FakeStripe> {
  const ledger = new PaymentIntentLedger(clock);
  const requests: RecordedRequest[] = [];
  const faults: Fault[] = [];
  const keptErrors = new Map<string, number>();

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => send(res, 500, { error: { type: "api_error", message: String(error) } }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    const raw = await readBody(req);
    const method = req.method ?? "GET";
    const params = parseForm(method === "GET" ? url.search.slice(1) : raw);
    const idempotencyKey = headerValue(req.headers["idempotency-key"]);
    requests.push({ method, path: url.pathname, idempotencyKey, body: params });

    const kept = idempotencyKey === undefined ? undefined : keptErrors.get(idempotencyKey);
    if (kept !== undefined) return send(res, kept, { error: { type: "api_error", message: "Injected failure (kept under this key)" } }, { "idempotent-replayed": "true", "stripe-should-retry": "false" });
    const faultIndex = faults.findIndex((fault) => fault.method === method && fault.path.test(url.pathname));
    if (faultIndex >= 0) {
      const [fault] = faults.splice(faultIndex, 1);
      if (fault?.kind === "status") {
        if (fault.kept !== undefined && idempotencyKey !== undefined) keptErrors.set(idempotencyKey, fault.status);
        if (fault.kept === "after") respond(req, url, method, params, idempotencyKey, { writeHead: () => undefined, end: () => undefined });
        // Stripe tells a kept 5xx by Stripe-Should-Retry: false (a retry would replay it).
        return send(res, fault.status, { error: { type: "api_error", ...fault.error, message: "Injected failure" } }, fault.kept === undefined ? {} : { "stripe-should-retry": "false" });
      }
      if (fault?.kind === "delay") await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    }
    respond(req, url, method, params, idempotencyKey, res);
  }

  /** Runs the request and answers it on `res` (a sink that drops the answer, for a kept error after the work). */
  function respond(req: IncomingMessage, url: URL, method: string, params: Record<string, unknown>, idempotencyKey: string | undefined, res: Answer): void {
    if (headerValue(req.headers.authorization) !== `Bearer ${FAKE_STRIPE_KEY}`) {
      return send(res, 401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } });
    }

    const expand = Object.values((params.expand as Record<string, string> | undefined) ?? {});
    const reply = (intent: LedgerIntent) => send(res, 200, withExpansion(intent, expand));
    try {
      const vault = vaultRequest(method, url, params, idempotencyKey);
      if (vault !== undefined) return send(res, 200, vault);
      const match = /^\/v1\/payment_intents(?:\/([^/]+))?(?:\/(confirm|capture|cancel))?$/.exec(url.pathname);
      if (!match) return send(res, 404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${url.pathname})` } });
      const [, id, action] = match;
      if (method === "POST" && !id) {
        return reply(
          ledger.create(
            {
              amount: Number(params.amount),
              currency: text(params.currency) ?? "",
              metadata: params.metadata as Record<string, string> | undefined,
              description: text(params.description),
              capture_method: params.capture_method as "manual" | "automatic" | undefined,
              ...(text(params.customer) !== undefined ? { customer: text(params.customer) } : {}),
              ...(params.setup_future_usage !== undefined ? { setup_future_usage: params.setup_future_usage as "on_session" | "off_session" } : {}),
            },
            idempotencyKey,
          ),
        );
      }
      if (!id) return send(res, 404, { error: { type: "invalid_request_error", message: "Not found" } });
      if (method === "GET" && !action) return reply(ledger.retrieve(id));
      if (method === "POST" && !action) {
        return reply(
          ledger.update(
            id,
            {
              ...(params.amount !== undefined ? { amount: Number(params.amount) } : {}),
              ...(text(params.currency) !== undefined ? { currency: text(params.currency) } : {}),
              ...(params.metadata !== undefined ? { metadata: params.metadata as Record<string, string> } : {}),
              ...(text(params.description) !== undefined ? { description: text(params.description) } : {}),
            },
            idempotencyKey,
          ),
        );
      }
      if (method === "POST" && action === "confirm") return reply(ledger.confirm(id, params.payment_method as string | undefined, idempotencyKey));
      if (method === "POST" && action === "capture") return reply(ledger.capture(id, idempotencyKey));
      if (method === "POST" && action === "cancel") return reply(ledger.cancel(id, idempotencyKey));
      return send(res, 404, { error: { type: "invalid_request_error", message: "Not found" } });
    } catch (error) {
      if (error instanceof LedgerError) {
        const body = error.body.payment_intent ? { ...error.body, payment_intent: withExpansion(error.body.payment_intent, []) } : error.body;
        return send(res, error.status, { error: body });
      }
      throw error;
    }
  }

  /** Customers and saved cards; undefined when the path is not theirs. Ledger errors propagate like the intents'. */
  function vaultRequest(method: string, url: URL, params: Record<string, unknown>, idempotencyKey: string | undefined): unknown {
    if (method === "POST" && url.pathname === "/v1/customers") {
      return ledger.createCustomer({ ...(text(params.email) !== undefined ? { email: text(params.email) } : {}), metadata: params.metadata as Record<string, string> | undefined }, idempotencyKey);
    }
    if (method === "GET" && url.pathname === "/v1/payment_methods") {
      const data = ledger.listPaymentMethods(text(params.customer) ?? "");
      return { object: "list", url: "/v1/payment_methods", has_more: false, data };
    }
    const match = /^\/v1\/payment_methods\/([^/]+)(\/detach)?$/.exec(url.pathname);
    if (match?.[1] && method === "GET" && !match[2]) return ledger.retrievePaymentMethod(match[1]);
    if (match?.[1] && method === "POST" && match[2]) return ledger.detachPaymentMethod(match[1]);
    return undefined;
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    ledger,
    requests,
    inject: (fault) => faults.push(fault),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Like Stripe: an unexpanded payment_method is its id. */
function withExpansion(intent: LedgerIntent, expand: string[]): Record<string, unknown> {
  return expand.includes("payment_method") ? intent : { ...intent, payment_method: intent.payment_method?.id ?? null };
}

/** Where an answer goes: the response, or nowhere. */
type Answer = { writeHead: (status: number, headers: Record<string, string>) => unknown; end: (text: string) => unknown };

function send(res: Answer, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", "request-id": `req_fake_${Date.now()}`, ...headers });
  res.end(JSON.stringify(body));
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Stripe's form encoding: `metadata[cartId]=x`, `expand[0]=payment_method`, nested to objects. */
export function parseForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.split(/\[|\]\[|\]/).filter((part) => part !== "");
    let node = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return root;
}

/** The real SDK pointed at the fake: what Stripe.js does in the customer's browser (confirming with the client secret). */
export function browserStripe(fake: FakeStripe): Stripe {
  const url = new URL(fake.url);
  return new Stripe(FAKE_STRIPE_KEY, { host: url.hostname, port: url.port, protocol: "http", maxNetworkRetries: 0, telemetry: false });
}

/** Confirms as the browser would; a decline is the browser's error, not the test's. */
export async function confirmInBrowser(fake: FakeStripe, intentId: string, paymentMethod: string): Promise<string> {
  try {
    return (await browserStripe(fake).paymentIntents.confirm(intentId, { payment_method: paymentMethod })).status;
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError) return "declined";
    throw error;
  }
}

export const intentIdOf = (clientSecret: string) => clientSecret.split("_secret_")[0] ?? "";

let eventCounter = 0;

/** A webhook request as Stripe sends it: the event (with a snapshot of the intent) signed over the raw body. */
export function signedWebhook(options: { type: string; intent: unknown; secret: string; at: Date; signature?: string; body?: string }): Request {
  eventCounter += 1;
  const payload =
    options.body ??
    JSON.stringify({
      id: `evt_test_${eventCounter}`,
      object: "event",
      api_version: Stripe.API_VERSION,
      created: Math.floor(options.at.getTime() / 1000),
      type: options.type,
      data: { object: options.intent },
    });
  const signature = options.signature ?? Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret, timestamp: Math.floor(options.at.getTime() / 1000) });
  return new Request("http://localhost/api/webhooks/stripe", { method: "POST", headers: { "content-type": "application/json", "stripe-signature": signature }, body: payload });
}
