import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartCredential, createTestApp, type TestApp } from "../harness";
import { operationShape, targetedVariants, variantArbitrary, type BaseRequest, type Variant } from "../fuzz-variants";
import { openApiValidator, type DocumentedOperation } from "../openapi-validator";
import { rowCounts } from "../row-counts";
import { loadFixtures, prepareCart, routeCases, validHeaders, type PreparedCart, type RouteCase } from "../routes";

/**
 * Schema-driven fuzzing of every operation in the OpenAPI document: hostile variants of a valid
 * request (test/fuzz-variants.ts) must get a documented status (the harness validates every
 * response against the document), never a 5xx, errors in exactly the envelope, and a refused
 * request must change nothing: not the cart, not the row count of any table.
 */
const SEED = 0x5eed_f022;
/** Random variants per operation, on top of the targeted ones; bounded so each project stays well under a minute. */
const RUNS_PER_OPERATION = 25;

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
  await loadFixtures(app);
});
afterAll(async () => {
  await app.close();
});

const validator = openApiValidator();

/** Everything a refused request must leave as it was. */
async function snapshot(cart: PreparedCart) {
  const read = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: cartCredential(cart) });
  // An error's requestId differs per call; its code is what must stay the same.
  const cartState = read.status === 200 ? read.text : (read.body as { code: string }).code;
  return { cartStatus: read.status, etag: read.headers.get("etag"), cart: cartState, rows: await rowCounts(app) };
}

/** The state after a refusal equals the state before, except tables the route records refusals in by design (one row at most). */
function expectUnchanged(after: Snapshot, before: Snapshot, route: RouteCase, message: string) {
  const recorded = new Set(route.refusalMayRecord ?? []);
  for (const table of recorded) {
    const grown = (after.rows[table] ?? 0) - (before.rows[table] ?? 0);
    expect(grown, `${message} (${table})`).toBeGreaterThanOrEqual(0);
    expect(grown, `${message} (${table})`).toBeLessThanOrEqual(1);
  }
  const without = (snapshot: Snapshot) => ({ ...snapshot, rows: Object.fromEntries(Object.entries(snapshot.rows).filter(([table]) => !recorded.has(table))) });
  expect(without(after), message).toEqual(without(before));
}

type Snapshot = Awaited<ReturnType<typeof snapshot>>;

const placeholderCart: PreparedCart = { cartId: "cart_x", token: "ct_x", etag: '"cart-0"', cart: { id: "cart_x" }, locationId: "loc_x", itemId: "item_x", quoteFingerprint: "0".repeat(64), receiptId: "rcpt_x", receiptToken: "rt_x" };

function routeFor(operation: DocumentedOperation): RouteCase | undefined {
  return routeCases.find((route) => {
    const found = validator.findOperation(route.method, route.path(placeholderCart));
    return found?.method === operation.method && found.template === operation.template;
  });
}

const cases = validator.operations.map((operation) => ({ name: `${operation.method.toUpperCase()} ${operation.template}`, operation, route: routeFor(operation) }));

function baseRequest(route: RouteCase, cart: PreparedCart): BaseRequest {
  const [pathname = "", search = ""] = route.path(cart).split("?");
  return { method: route.method, segments: pathname.split("/").slice(1), query: [...new URLSearchParams(search).entries()], headers: validHeaders(route, cart), body: route.body?.(cart) };
}

const readsOnly = new Set<RouteCase["kind"]>(["anonymousRead", "cartRead", "receiptRead", "customerRead"]);
const envelopeKeys = ["code", "message", "requestId", "details"];

describe("schema-driven fuzzing", () => {
  it("has a valid request in the route table for every documented operation", () => {
    expect(cases.filter((entry) => entry.route === undefined).map((entry) => entry.name)).toEqual([]);
    expect(cases.length).toBeGreaterThanOrEqual(routeCases.length);
  });

  describe.each(cases)("$name", ({ operation, route }) => {
    it("answers hostile variants with a documented status, never 5xx, the envelope on errors, and no change when it refuses", async () => {
      if (!route) throw new Error("no route case: see the coverage test above");
      const shape = operationShape(validator, operation);
      const validBody = route.body?.(placeholderCart);
      let cart = await prepareCart(app, route);
      let stale = false;
      // The state after the last refused variant is the state before the next one, unless something was accepted since.
      let known: Snapshot | undefined;
      const outcomes = new Map<number, number>();

      const check = async (variant: Variant) => {
        if (stale) {
          cart = await prepareCart(app, route);
          stale = false;
          known = undefined;
        }
        const request = variant.build(baseRequest(route, cart));
        const before = known ?? (await snapshot(cart));
        known = undefined;
        const response = await app.call(request.method, request.path, { headers: request.headers, body: request.body, rawBody: request.rawBody });
        outcomes.set(response.status, (outcomes.get(response.status) ?? 0) + 1);
        expect(response.status, `${variant.label}: ${response.text.slice(0, 300)}`).toBeLessThan(500);
        expect(Object.prototype, variant.label).not.toHaveProperty("polluted");
        if (response.status >= 400) {
          const body = response.body as Record<string, unknown>;
          expect(Object.keys(body).filter((key) => !envelopeKeys.includes(key)), variant.label).toEqual([]);
          const after = await snapshot(cart);
          expectUnchanged(after, before, route, `${variant.label} was refused with ${response.status} but changed state`);
          known = after;
        } else if (!readsOnly.has(route.kind)) {
          // An accepted variant is a legitimate change; the next variant starts from a fresh cart.
          stale = true;
        }
      };

      const targeted = targetedVariants(validator, shape, validBody);
      await fc.assert(fc.asyncProperty(variantArbitrary(validator, shape, validBody), check), {
        seed: SEED,
        numRuns: RUNS_PER_OPERATION + targeted.length,
        examples: targeted.map((variant) => [variant]),
        // The state is shared across runs, so shrinking would replay against a moved cart; the label names the cause.
        endOnFailure: true,
      });
      // An operation that accepted nearly everything was not really fuzzed (reads without parameters ignore more).
      const refused = [...outcomes].filter(([status]) => status >= 400).reduce((sum, [, count]) => sum + count, 0);
      expect(refused).toBeGreaterThan(RUNS_PER_OPERATION / 4);
    });
  });
});
