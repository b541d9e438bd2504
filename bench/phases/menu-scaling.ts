import { openInProcessApp, type InProcessApp } from "../query-count";
import type { TargetCheck } from "../targets";
import { median, ms, ratio, type PhaseReport } from "./types";

type Reads = { status: number | string; statements: number; p50Ms: number; etag: string };
type MenuRow = { locationId: string; products: number; full: Reads; cached: Reads; conditional: Reads };

/** `samples` identical reads: p50, and the statements of the last (all must answer `status`). */
async function sampleReads(app: InProcessApp, path: string, status: number, headers: Record<string, string>, samples: number): Promise<Reads> {
  const times: number[] = [];
  let statements = Number.NaN;
  let etag = "";
  for (let sample = 0; sample < samples; sample += 1) {
    const result = await app.call("GET", path, status, headers).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
    if (typeof result === "string") return { status: result.slice(0, 120), statements: Number.NaN, p50Ms: Number.NaN, etag: "" };
    times.push(result.ms);
    statements = result.queries;
    etag = result.etag;
  }
  return { status, statements, p50Ms: median(times), etag };
}

/**
 * GET menus at 10, 500 and 5,000 products, in-process through the REST handler: full reads
 * (`Cache-Control: no-cache`, so each one reads the database), repeated anonymous reads (answered
 * by the response cache), and reads with If-None-Match set to the ETag just served (304).
 */
export async function measureMenuScaling(url: string, locations: { id: string; productCount: number }[], samples: number): Promise<PhaseReport> {
  const app = await openInProcessApp(url);
  try {
    const rows: MenuRow[] = [];
    for (const location of locations) {
      const path = `/locations/${location.id}/menus`;
      const first = await app.call("GET", path, 200, { "cache-control": "no-cache" });
      const body = JSON.parse(first.text) as { menus: { categories: { products: unknown[] }[] }[] };
      const products = body.menus.flatMap((menu) => menu.categories).reduce((sum, category) => sum + category.products.length, 0);
      const full = await sampleReads(app, path, 200, { "cache-control": "no-cache" }, samples);
      const cached = await sampleReads(app, path, 200, {}, samples);
      // The ETag just served, not the first read's: a menu names the current local time (orderTime), so
      // a representation from before a minute boundary rightly no longer matches.
      const conditional = cached.etag === "" ? { status: "no ETag served", statements: Number.NaN, p50Ms: Number.NaN, etag: "" } : await sampleReads(app, path, 304, { "if-none-match": cached.etag }, samples);
      rows.push({ locationId: location.id, products, full: { ...full, statements: first.queries }, cached, conditional });
    }

    const statementCounts = new Set(rows.map((row) => row.full.statements));
    const smallest = rows[0];
    const largest = rows[rows.length - 1];
    const described = (reads: Reads) => (typeof reads.status === "number" ? `${reads.status}, ${reads.statements} statements` : reads.status);
    const targets: TargetCheck[] = [
      {
        id: "menu-scaling-statements",
        description: `GET menu: statements constant from ${smallest?.products ?? "?"} to ${largest?.products ?? "?"} products`,
        value: rows.map((row) => `${row.products}: ${row.full.statements}`).join(", "),
        pass: statementCounts.size === 1,
      },
      {
        id: "menu-cached-no-query",
        description: "GET menu, cached reads (repeated, and with If-None-Match): served without a database statement",
        value: rows.map((row) => `${row.products}: ${described(row.cached)} / ${described(row.conditional)}`).join("; "),
        pass: rows.every((row) => row.cached.status === 200 && row.cached.statements === 0 && row.conditional.status === 304 && row.conditional.statements === 0),
      },
    ];
    return {
      id: "menu",
      title: "Menu size 10 -> 5,000 products",
      description:
        `In-process through the REST handler, ${samples} of each per location: full reads (Cache-Control: no-cache, so each reads the database), ` +
        "repeated anonymous reads (served by the response cache), and reads with If-None-Match set to the ETag just served.",
      tables: [
        {
          title: "GET menu by menu size",
          header: ["location", "products", "full p50 ms", "x smallest", "statements", "cached p50 ms", "statements (cached)", "If-None-Match", "statements (304)", "p50 ms (304)"],
          rows: rows.map((row) => [
            row.locationId,
            String(row.products),
            ms(row.full.p50Ms),
            ratio(row.full.p50Ms / (smallest?.full.p50Ms ?? Number.NaN)),
            String(row.full.statements),
            ms(row.cached.p50Ms),
            Number.isFinite(row.cached.statements) ? String(row.cached.statements) : String(row.cached.status),
            String(row.conditional.status),
            Number.isFinite(row.conditional.statements) ? String(row.conditional.statements) : "-",
            ms(row.conditional.p50Ms),
          ]),
        },
      ],
      targets,
      data: { samples, rows },
    };
  } finally {
    await app.close();
  }
}
