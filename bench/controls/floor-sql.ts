import type { CartLine } from "../../server/domain/cart-types";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import postgres, { type Sql, type TransactionSql } from "postgres";
import type { ControlRequest, ControlResponse } from "./operations";

/**
 * The benchmark's floor: each measured operation done with the least code that does it correctly,
 * straight over postgres.js (tagged templates, named prepared statements) on the service's own tables.
 * No Drizzle, no tRPC, no zod, no service code: what is left is the SQL, JSON in and out, and the
 * HTTP mount (bare node:http in bench/controls/node-server.ts, the plain Next route in
 * app/api/bench/[operation]/route.ts). The service / floor throughput ratio is what everything
 * above the SQL costs. Issue 16, after ../shared/bench-controls/sql.mjs (K0/K1).
 *
 * Statements per operation (BEGIN and COMMIT counted):
 *   GET  floor-menus             4: location, menus, categories, products (the last two in parallel)
 *   POST floor-ordering-session  6: BEGIN, idempotency claim, location + merchant, cart insert, stored answer, COMMIT
 *   POST floor-add-item          7: BEGIN, idempotency claim, cart read (token hash, revision, its line rows), product read,
 *                                   compare-and-set of the revision writing the totals with the one line row it
 *                                   changes (one statement), stored answer, COMMIT
 *   GET  floor-cart              1: the cart row with its line rows, then the token's SHA-256 compared with its hash
 *
 * Idempotency records go to the service's `idempotency_records` (operation `floor.*`): the claim is
 * one INSERT ... ON CONFLICT DO NOTHING with placeholder status/answer (its NOT NULL columns), the
 * answer is written by an UPDATE before COMMIT, so a record exists exactly when the change does. A
 * second request with the same key replays the stored answer (or 422 for a different body). The
 * answer is stored as plain JSON text, not sealed: the floor skips the service's encryption.
 *
 * Deliberately less than the service (what makes it a floor): no menu availability by time of day,
 * no modifier min/max rules beyond "the option exists", no fee/tax pricing (subtotal only), no
 * catalog-change detection on GET cart, no customer bearer tokens, no rate limit, no envelope.
 */
export type FloorSql = Sql;

/** The operations, as named under the control prefix: /api/bench/floor-{menus,ordering-session,add-item,cart}. */
export const FLOOR_OPERATIONS = ["floor-menus", "floor-ordering-session", "floor-add-item", "floor-cart"] as const;
export type FloorOperation = (typeof FLOOR_OPERATIONS)[number];

export function isFloorOperation(operation: string): operation is FloorOperation {
  return (FLOOR_OPERATIONS as readonly string[]).includes(operation);
}

/**
 * A postgres.js pool for the floor: prepared statements, quiet notices, connections opened on demand.
 * `onStatement` (tests) sees every statement sent, BEGIN and COMMIT included.
 */
export function openFloorSql(url: string, max = 10, onStatement?: (query: string) => void): FloorSql {
  return postgres(url, { max, prepare: true, onnotice: () => undefined, ...(onStatement ? { debug: (_connection: number, query: string) => onStatement(query) } : {}) });
}

/** Cart lifetime without activity, as the service's default CART_IDLE_TTL_MINUTES. */
const CART_IDLE_MS = 120 * 60_000;
const IDEMPOTENCY_TTL = "24 hours";
const CART_ETAG = /^(?:W\/)?"cart-(\d+)"$/;

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(code);
  }
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): ControlResponse {
  return { status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) };
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

const etag = (revision: number) => `"cart-${revision}"`;
const cartHeaders = (revision: number) => ({ etag: etag(revision), "cache-control": "private, no-store" });

// The stored line's shape is the service's (a type only: the floor runs none of the service's code).
type Line = CartLine;
type Selection = CartLine["selections"][number];
type PricedLine = { lineId: string; unitPriceMinor: number; totalMinor: number };
type Totals = { subTotal: number; totalQuantity: number };
type Priced = Totals & { lines: PricedLine[] };
type Group = { id: string; name: string; options: { id: string; name: string; priceMinor: number; available: boolean }[] };

/** Subtotal only: each line's unit price (base + its options) times its quantity. */
export function priceLines(lines: Line[]): Priced {
  const priced = lines.map(priceLine);
  return {
    subTotal: priced.reduce((sum, line) => sum + line.totalMinor, 0),
    totalQuantity: lines.reduce((sum, line) => sum + line.quantity, 0),
    lines: priced,
  };
}

function priceLine(line: Line): PricedLine {
  const unitPriceMinor = line.basePriceMinor + line.selections.reduce((sum, selection) => sum + selection.priceMinor * selection.quantity, 0);
  return { lineId: line.id, unitPriceMinor, totalMinor: unitPriceMinor * line.quantity };
}

/** The stored totals: the priced lines are stored with their lines (the service's `cart_lines`). */
const totalsOf = ({ subTotal, totalQuantity }: Priced): Totals => ({ subTotal, totalQuantity });

type CartView = { id: string; locationId: string; status: string; revision: number; currency: string; fulfillmentMethod: string; lines: Line[]; priced: Priced; expiresAt: string };

// ---------------------------------------------------------------------------------------------
// GET menu

async function menus(sql: Sql, locationId: string): Promise<ControlResponse> {
  const [location] = await sql<{ id: string; currency: string }[]>`select id, currency from locations where id = ${locationId} and published`;
  if (!location) throw new Refusal(404, "NOT_FOUND");
  const menuRows = await sql<{ id: string; name: string; description: string }[]>`
    select id, name, description from menus where location_id = ${locationId} order by sort_order, id`;
  const [categoryRows, productRows] = await Promise.all([
    sql<{ id: string; menu_id: string; name: string; description: string }[]>`
      select id, menu_id, name, description from categories where location_id = ${locationId} order by sort_order, id`,
    sql<{ id: string; category_id: string; name: string; description: string; price_minor: string; image_url: string; available: boolean; max_quantity: number | null; modifier_groups: unknown }[]>`
      select id, category_id, name, description, price_minor, image_url, available, max_quantity, modifier_groups
      from products where location_id = ${locationId} order by sort_order, id`,
  ]);
  const byCategory = new Map<string, unknown[]>();
  for (const product of productRows) {
    const list = byCategory.get(product.category_id) ?? [];
    list.push({
      id: product.id,
      name: product.name,
      description: product.description,
      priceMinor: Number(product.price_minor),
      imageUrl: product.image_url,
      available: product.available,
      maxQuantity: product.max_quantity,
      modifierGroups: product.modifier_groups,
    });
    byCategory.set(product.category_id, list);
  }
  return json(200, {
    locationId: location.id,
    currency: location.currency,
    menus: menuRows.map((menu) => ({
      id: menu.id,
      name: menu.name,
      description: menu.description,
      categories: categoryRows
        .filter((category) => category.menu_id === menu.id)
        .map((category) => ({ id: category.id, name: category.name, description: category.description, products: byCategory.get(category.id) ?? [] })),
    })),
  });
}

// ---------------------------------------------------------------------------------------------
// Idempotency: claim, replay, store

type Idempotency = { scope: string; operation: string; key: string; fingerprint: string };

function idempotencyOf(request: ControlRequest, scope: string, operation: string): Idempotency {
  const key = request.headers.get("idempotency-key");
  if (!key) throw new Refusal(400, "IDEMPOTENCY_KEY_REQUIRED");
  return { scope, operation, key, fingerprint: sha256(`${request.query.toString()}\n${request.bodyText}`) };
}

/** True when this request now owns the key; false when a record already exists (replay it). */
async function claim(tx: TransactionSql, idem: Idempotency): Promise<boolean> {
  const claimed = await tx`
    insert into idempotency_records (scope, operation, key, request_fingerprint, status_code, response_sealed, response_headers, expires_at)
    values (${idem.scope}, ${idem.operation}, ${idem.key}, ${idem.fingerprint}, 0, '', '{}'::jsonb, now() + ${IDEMPOTENCY_TTL}::interval)
    on conflict do nothing returning key`;
  return claimed.length > 0;
}

async function replay(tx: TransactionSql, idem: Idempotency): Promise<ControlResponse> {
  const [stored] = await tx<{ request_fingerprint: string; status_code: number; response_sealed: string; response_headers: Record<string, string> }[]>`
    select request_fingerprint, status_code, response_sealed, response_headers from idempotency_records
    where scope = ${idem.scope} and operation = ${idem.operation} and key = ${idem.key}`;
  if (!stored) throw new Refusal(409, "IDEMPOTENCY_IN_PROGRESS");
  if (stored.request_fingerprint !== idem.fingerprint) throw new Refusal(422, "IDEMPOTENCY_KEY_REUSED");
  return { status: stored.status_code, headers: { "content-type": "application/json", ...stored.response_headers, "idempotent-replayed": "true" }, body: stored.response_sealed };
}

async function store(tx: TransactionSql, idem: Idempotency, response: ControlResponse): Promise<ControlResponse> {
  const { "content-type": _contentType, ...headers } = response.headers;
  await tx`
    update idempotency_records set status_code = ${response.status}, response_sealed = ${response.body}, response_headers = ${tx.json(headers)}
    where scope = ${idem.scope} and operation = ${idem.operation} and key = ${idem.key}`;
  return response;
}

// ---------------------------------------------------------------------------------------------
// POST ordering session

async function orderingSession(sql: Sql, request: ControlRequest, locationId: string): Promise<ControlResponse> {
  const idem = idempotencyOf(request, `ip:${request.clientIp}`, "floor.orderingSession");
  const body = parseBody(request.bodyText);
  const method = body.fulfillmentMethod;
  if (typeof method !== "string") throw new Refusal(400, "VALIDATION_ERROR");
  return sql.begin(async (tx) => {
    if (!(await claim(tx, idem))) return replay(tx, idem);
    const [location] = await tx<{ merchant_id: string; display_name: string; currency: string; catalog_revision: number; policy_revision: number; fulfilment: Record<string, { enabled?: boolean } | undefined>; statement_descriptor: string }[]>`
      select l.merchant_id, l.display_name, l.currency, l.catalog_revision, l.policy_revision, l.fulfilment, m.statement_descriptor
      from locations l join merchants m on m.id = l.merchant_id where l.id = ${locationId} and l.published`;
    if (!location) throw new Refusal(404, "NOT_FOUND");
    if (!location.fulfilment[method]?.enabled) throw new Refusal(422, "FULFILLMENT_METHOD_UNAVAILABLE");
    const token = `ct_${randomBytes(32).toString("base64url")}`;
    const id = `cart_${randomBytes(12).toString("base64url")}`;
    const priced = priceLines([]);
    const expiresAt = new Date(Date.now() + CART_IDLE_MS);
    await tx`
      insert into carts (id, location_id, merchant_id, status, revision, token_hash, currency, restaurant_display_name, statement_descriptor,
                         fulfilment_method, fulfillment_identifier, pickup_type, order_date, order_time, priced,
                         catalog_revision, policy_revision, expires_at)
      values (${id}, ${locationId}, ${location.merchant_id}, 'OPEN', 0, ${sha256(token)}, ${location.currency}, ${location.display_name}, ${location.statement_descriptor},
              ${method}, ${method}, 'ASAP', '', '', ${tx.json(totalsOf(priced))},
              ${location.catalog_revision}, ${location.policy_revision}, ${expiresAt})`;
    const cart: CartView = { id, locationId, status: "OPEN", revision: 0, currency: location.currency, fulfillmentMethod: method, lines: [], priced, expiresAt: expiresAt.toISOString() };
    return store(tx, idem, json(201, { cart, cartAccessToken: token }, cartHeaders(0)));
  });
}

// ---------------------------------------------------------------------------------------------
// POST add item

type CartRow = { revision: string; token_hash: string | null; status: string; currency: string; fulfilment_method: string; lines: [Line, PricedLine][]; expires_at: Date };

function checkToken(request: ControlRequest, tokenHash: string | null): void {
  const token = request.headers.get("x-cart-token");
  if (!token) throw new Refusal(401, "UNAUTHORIZED");
  if (!tokenHash || !sameHash(sha256(token), tokenHash)) throw new Refusal(403, "FORBIDDEN");
}

function ifMatchRevision(request: ControlRequest): number {
  const header = request.headers.get("if-match");
  if (!header) throw new Refusal(428, "PRECONDITION_REQUIRED");
  const match = CART_ETAG.exec(header.trim());
  if (!match?.[1]) throw new Refusal(400, "VALIDATION_ERROR");
  return Number(match[1]);
}

type AddBody = { productId: string; quantity: number; selections: { modifierGroupId: string; optionId: string; quantity?: number }[]; specialInstructions: string };

function addBody(bodyText: string): AddBody {
  const body = parseBody(bodyText);
  const { productId, quantity, selections = [], specialInstructions = "" } = body as { productId?: unknown; quantity?: unknown; selections?: unknown; specialInstructions?: unknown };
  if (typeof productId !== "string" || typeof quantity !== "number" || !Number.isInteger(quantity) || quantity < 1 || !Array.isArray(selections) || typeof specialInstructions !== "string") {
    throw new Refusal(400, "VALIDATION_ERROR");
  }
  return { productId, quantity, selections: selections as AddBody["selections"], specialInstructions };
}

/** The line the request adds, or the existing line it merges into (same product, options and instructions). */
export function mergeLine(lines: Line[], added: Omit<Line, "id">, newId: () => string): Line[] {
  const signature = (line: Omit<Line, "id">) => `${line.productId}|${line.specialInstructions}|${line.selections.map((s) => `${s.modifierGroupId}:${s.optionId}:${s.quantity}`).join(",")}`;
  const wanted = signature(added);
  const index = lines.findIndex((line) => signature(line) === wanted);
  if (index < 0) return [...lines, { id: newId(), ...added }];
  return lines.map((line, at) => (at === index ? { ...line, quantity: line.quantity + added.quantity } : line));
}

async function addItem(sql: Sql, request: ControlRequest, locationId: string, cartId: string): Promise<ControlResponse> {
  const expected = ifMatchRevision(request);
  const idem = idempotencyOf(request, `cart:${cartId}`, "floor.addItem");
  const input = addBody(request.bodyText);
  return sql.begin(async (tx) => {
    if (!(await claim(tx, idem))) return replay(tx, idem);
    const [cart] = await tx<CartRow[]>`
      select revision, token_hash, status, currency, fulfilment_method, (select coalesce(json_agg(json_build_array(l.line, l.priced) order by l.seq), '[]'::json) from cart_lines l where l.cart_id = c.id) as lines, expires_at from carts c where id = ${cartId} and location_id = ${locationId}`;
    if (!cart) throw new Refusal(404, "NOT_FOUND");
    checkToken(request, cart.token_hash);
    if (cart.status !== "OPEN") throw new Refusal(409, "CART_NOT_OPEN");
    if (Number(cart.revision) !== expected) throw new Refusal(409, "CART_CONFLICT", cartHeaders(Number(cart.revision)));
    const [product] = await tx<{ name: string; description: string; image_url: string; category_id: string; price_minor: string; available: boolean; modifier_groups: Group[] }[]>`
      select name, description, image_url, category_id, price_minor, available, modifier_groups from products where id = ${input.productId} and location_id = ${locationId}`;
    if (!product?.available) throw new Refusal(422, "PRODUCT_UNAVAILABLE");
    const selections = input.selections.map((wanted): Selection => {
      const group = product.modifier_groups.find((candidate) => candidate.id === wanted.modifierGroupId);
      const option = group?.options.find((candidate) => candidate.id === wanted.optionId);
      if (!group || !option?.available) throw new Refusal(422, "INVALID_SELECTION");
      return { modifierGroupId: group.id, modifierGroupName: group.name, optionId: option.id, optionName: option.name, quantity: wanted.quantity ?? 1, priceMinor: option.priceMinor };
    });
    const before = cart.lines.map(([line]) => line);
    const lines = mergeLine(
      before,
      {
        productId: input.productId,
        name: product.name,
        description: product.description,
        imageUrl: product.image_url,
        categoryId: product.category_id,
        quantity: input.quantity,
        basePriceMinor: Number(product.price_minor),
        selections,
        specialInstructions: input.specialInstructions,
        itemUnavailableAction: "remove_item",
      },
      () => `line_${randomBytes(9).toString("base64url")}`,
    );
    const priced = priceLines(lines);
    const expiresAt = new Date(Date.now() + CART_IDLE_MS);
    // The one line that changed: the merged one, else the new one at the end.
    const changedAt = lines.findIndex((line, at) => line !== before[at]);
    const changed = lines[changedAt] as Line;
    const [updated] = await tx<{ revision: string }[]>`
      with c as (
        update carts set priced = ${tx.json(totalsOf(priced))}, revision = revision + 1, expires_at = ${expiresAt}, updated_at = now()
        where id = ${cartId} and revision = ${expected} returning revision
      ), l as (
        insert into cart_lines (cart_id, line_id, seq, line, priced)
        select ${cartId}, ${changed.id}, ${changedAt}, ${tx.json(changed)}, ${tx.json(priceLine(changed))} where exists (select 1 from c)
        on conflict (cart_id, line_id) do update set line = excluded.line, priced = excluded.priced
      )
      select revision from c`;
    if (!updated) throw new Refusal(409, "CART_CONFLICT");
    const revision = Number(updated.revision);
    const view: CartView = { id: cartId, locationId, status: cart.status, revision, currency: cart.currency, fulfillmentMethod: cart.fulfilment_method, lines, priced, expiresAt: expiresAt.toISOString() };
    return store(tx, idem, json(200, view, cartHeaders(revision)));
  });
}

// ---------------------------------------------------------------------------------------------
// GET cart

async function getCart(sql: Sql, request: ControlRequest, locationId: string, cartId: string): Promise<ControlResponse> {
  const [cart] = await sql<(CartRow & { priced: Totals })[]>`
    select revision, token_hash, status, currency, fulfilment_method, (select coalesce(json_agg(json_build_array(l.line, l.priced) order by l.seq), '[]'::json) from cart_lines l where l.cart_id = c.id) as lines, priced, expires_at from carts c where id = ${cartId} and location_id = ${locationId}`;
  if (!cart) throw new Refusal(404, "NOT_FOUND");
  checkToken(request, cart.token_hash);
  const revision = Number(cart.revision);
  const priced: Priced = { ...cart.priced, lines: cart.lines.map(([, pricedLine]) => pricedLine) };
  const view: CartView = { id: cartId, locationId, status: cart.status, revision, currency: cart.currency, fulfillmentMethod: cart.fulfilment_method, lines: cart.lines.map(([line]) => line), priced, expiresAt: cart.expires_at.toISOString() };
  return json(200, view, cartHeaders(revision));
}

// ---------------------------------------------------------------------------------------------

function parseBody(bodyText: string): Record<string, unknown> {
  try {
    const body: unknown = bodyText === "" ? {} : JSON.parse(bodyText);
    if (typeof body === "object" && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new Refusal(400, "VALIDATION_ERROR");
}

const METHODS: Record<FloorOperation, "GET" | "POST"> = { "floor-menus": "GET", "floor-ordering-session": "POST", "floor-add-item": "POST", "floor-cart": "GET" };

/** One floor operation (request shaped as for the other controls); refusals are JSON `{ code }` with their status. */
export async function runFloorOperation(sql: FloorSql, request: ControlRequest): Promise<ControlResponse> {
  if (!isFloorOperation(request.operation)) return json(404, { code: "NOT_FOUND" });
  const operation = request.operation;
  if (request.method !== METHODS[operation]) return json(405, { code: "METHOD_NOT_ALLOWED" });
  const locationId = request.query.get("locationId") ?? "";
  const cartId = request.query.get("cartId") ?? "";
  try {
    switch (operation) {
      case "floor-menus":
        return await menus(sql, locationId);
      case "floor-ordering-session":
        return await orderingSession(sql, request, locationId);
      case "floor-add-item":
        return await addItem(sql, request, locationId, cartId);
      case "floor-cart":
        return await getCart(sql, request, locationId, cartId);
    }
  } catch (error) {
    if (error instanceof Refusal) return json(error.status, { code: error.code }, error.headers);
    throw error;
  }
}
