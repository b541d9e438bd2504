import postgres from "postgres";
import { openInProcessApp } from "../query-count";
import type { TargetCheck } from "../targets";
import { openCart } from "./cart-session";
import type { PhaseReport } from "./types";

/** Tables the bulk insert makes large: a sequential scan on one of them is a hot-path failure. */
const LARGE_TABLES = ["carts", "cart_lines", "payment_attempts", "orders", "order_lines", "idempotency_records"];

/** Per generated cart `g`: overrides of the template cart's columns (everything else is copied). */
const CART_OVERRIDES: Record<string, string> = {
  id: `'crt_bulk_' || g`,
  token_hash: `md5('bulk' || g)`,
  status: `(array['OPEN','LOCKED','COMPLETED','EXPIRED'])[1 + g % 4]`,
  customer_id: `case when g % 2 = 0 then 'cus_bulk_' || (g % 10000) end`,
  expires_at: `now() + ((g % 2000) - 1000) * interval '1 minute'`,
  locked_at: "null",
  created_at: "now()",
  updated_at: "now()",
};

async function bulkInsert(sql: postgres.Sql, templateCartId: string, count: number): Promise<void> {
  const columns = (await sql<{ column_name: string }[]>`select column_name from information_schema.columns where table_schema = current_schema() and table_name = 'carts' order by ordinal_position`).map((row) => row.column_name);
  const select = columns.map((column) => CART_OVERRIDES[column] ?? `t.${column}`);
  await sql.begin(async (tx) => {
    await tx.unsafe(`insert into carts (${columns.join(", ")}) select ${select.join(", ")} from carts t, generate_series(1, ${count}) g where t.id = $1`, [templateCartId]);
    await tx.unsafe(`insert into cart_lines (cart_id, line_id, seq, line, priced)
      select 'crt_bulk_' || g, 'lin_bulk_' || n, n, '{}'::json, '{}'::json from generate_series(1, ${count}) g, generate_series(0, 2) n`);
    await tx.unsafe(`insert into payment_attempts (id, cart_id, intent_id, source, status, created_at)
      select 'pat_bulk_' || g, 'crt_bulk_' || g, 'pi_bulk_' || g, 'client', 'succeeded', now() from generate_series(1, ${count}) g`);
    await tx.unsafe(
      `insert into orders (id, cart_id, attempt_id, location_id, merchant_id, customer_id, currency, restaurant_display_name, statement_descriptor,
         fulfilment_method, pickup_type, order_date, order_time, quote_fingerprint, totals, amount_charged_minor, processor, payment_intent_id, placed_at)
       select 'ord_bulk_' || g, c.id, 'pat_bulk_' || g, c.location_id, c.merchant_id, c.customer_id, c.currency, c.restaurant_display_name, c.statement_descriptor,
         c.fulfilment_method, c.pickup_type, c.order_date, c.order_time, 'bulk', jsonb_build_object('orderTotalWithServiceFee', 1000), 1000, 'simulated',
         'pi_bulk_' || g, now() - g * interval '1 minute'
       from generate_series(1, ${count}) g join carts c on c.id = 'crt_bulk_' || g`,
    );
    await tx.unsafe(`insert into order_lines (order_id, position, cart_line_id, product_id, category_id, name, quantity, base_price_minor, unit_price_minor, total_minor, discount_minor, selections, special_instructions)
      select 'ord_bulk_' || g, 0, 'lin_bulk_' || g, 'prd_hk_smash_burger', 'cat_bulk', 'Bulk burger', 1, 1000, 1000, 1000, 0, '[]'::jsonb, '' from generate_series(1, ${count}) g`);
    await tx.unsafe(`insert into idempotency_records (scope, operation, key, request_fingerprint, status_code, response_sealed, response_headers, expires_at)
      select 'cart:crt_bulk_' || (g % 1000), 'addItem', 'key_bulk_' || g, 'bulk', 200, 'bulk', '{}'::jsonb, now() + interval '1 day' from generate_series(1, ${count}) g`);
  });
  for (const table of LARGE_TABLES) await sql.unsafe(`analyze ${table}`);
}

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; Plans?: PlanNode[] };

function flatten(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(flatten)];
}

/**
 * 10^5 carts (three line rows each), payment attempts, orders, order lines and idempotency records bulk-inserted next to
 * the bench data, ANALYZEd, then the hot-path queries EXPLAINed (the shapes the services send).
 */
export async function measurePlans(url: string, locationId: string, count: number): Promise<PhaseReport> {
  const app = await openInProcessApp(url);
  let template: string;
  try {
    template = (await openCart(app, locationId)).cartId;
  } finally {
    await app.close();
  }
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    const started = performance.now();
    await bulkInsert(sql, template, count);
    const insertSeconds = (performance.now() - started) / 1000;
    const probe = Math.floor(count / 2);
    const customer = `cus_bulk_${probe % 10000}`;
    const queries: { name: string; text: string; params: string[] }[] = [
      { name: "cart by id + location", text: "select * from carts where id = $1 and location_id = $2", params: [`crt_bulk_${probe}`, locationId] },
      {
        name: "lines of a cart, in order",
        text: "select json_agg(json_build_array(l.line, l.priced) order by l.seq) from cart_lines l where l.cart_id = $1",
        params: [`crt_bulk_${probe}`],
      },
      { name: "cart by token hash", text: "select id from carts where token_hash = $1 limit 1", params: ["0".repeat(32)] },
      { name: "idempotency record by (scope, key)", text: "select * from idempotency_records where scope = $1 and key = $2 and expires_at > now()", params: [`cart:crt_bulk_${probe % 1000}`, `key_bulk_${probe}`] },
      { name: "order by cart id", text: "select * from orders where cart_id = $1", params: [`crt_bulk_${probe}`] },
      { name: "order lines of an order", text: "select * from order_lines where order_id = $1 order by position", params: [`ord_bulk_${probe}`] },
      { name: "orders by customer, newest first", text: "select * from orders where customer_id = $1 order by placed_at desc, id desc limit 20", params: [customer] },
      { name: "expiry job: open carts due", text: "select id from carts where status = 'OPEN' and expires_at <= now() order by expires_at asc limit 100 for update skip locked", params: [] },
    ];
    const rows: { name: string; nodes: string[]; seqScans: string[] }[] = [];
    for (const query of queries) {
      const [result] = await sql.unsafe<{ "QUERY PLAN": { Plan: PlanNode }[] }[]>(`explain (format json) ${query.text}`, query.params);
      const plan = result?.["QUERY PLAN"][0]?.Plan;
      if (!plan) throw new Error(`no plan for ${query.name}`);
      const nodes = flatten(plan);
      rows.push({
        name: query.name,
        nodes: nodes.map((node) => `${node["Node Type"]}${node["Index Name"] ? ` (${node["Index Name"]})` : node["Relation Name"] ? ` (${node["Relation Name"]})` : ""}`),
        seqScans: nodes.filter((node) => node["Node Type"] === "Seq Scan" && LARGE_TABLES.includes(node["Relation Name"] ?? "")).map((node) => node["Relation Name"] ?? ""),
      });
    }
    const offenders = rows.filter((row) => row.seqScans.length > 0);
    const targets: TargetCheck[] = [
      {
        id: "plans-no-seq-scan",
        description: `hot-path queries over ${count.toLocaleString("en-US")} carts and orders: no Seq Scan on a large table`,
        value: offenders.length === 0 ? `${rows.length} queries, 0 seq scans` : offenders.map((row) => `${row.name}: ${row.seqScans.join(", ")}`).join("; "),
        pass: offenders.length === 0,
      },
    ];
    return {
      id: "plans",
      title: `Query plans at ${count.toLocaleString("en-US")} carts and orders`,
      description: `Bulk-inserted ${count} each of carts, payment attempts, orders, order lines and idempotency records (INSERT ... SELECT generate_series, ${insertSeconds.toFixed(1)} s), ANALYZE, then EXPLAIN (FORMAT JSON) of each hot-path query.`,
      tables: [{ title: "plan nodes per query", header: ["query", "plan nodes", "seq scans"], rows: rows.map((row) => [row.name, row.nodes.join(" > "), row.seqScans.join(", ") || "none"]) }],
      targets,
      data: { count, insertSeconds, rows },
    };
  } finally {
    await sql.end({ timeout: 5 });
  }
}
