import { openInProcessApp } from "../query-count";
import type { TargetCheck } from "../targets";
import { median, ms, ratio, type PhaseReport } from "./types";

type MenuRow = { locationId: string; products: number; p50Ms: number; statements: number; conditional: { status: number | string; statements: number; p50Ms: number } };

/**
 * GET menus at 10, 500 and 5,000 products, in-process through the REST handler: latency and
 * statements, then the same read with If-None-Match set to the ETag just served (a cached read).
 */
export async function measureMenuScaling(url: string, locations: { id: string; productCount: number }[], samples: number): Promise<PhaseReport> {
  const app = await openInProcessApp(url);
  try {
    const rows: MenuRow[] = [];
    for (const location of locations) {
      const path = `/locations/${location.id}/menus`;
      const first = await app.call("GET", path, 200);
      const body = JSON.parse(first.text) as { menus: { categories: { products: unknown[] }[] }[] };
      const products = body.menus.flatMap((menu) => menu.categories).reduce((sum, category) => sum + category.products.length, 0);
      const times: number[] = [];
      for (let sample = 0; sample < samples; sample += 1) times.push((await app.call("GET", path, 200)).ms);

      let conditional: MenuRow["conditional"] = { status: "no ETag served", statements: Number.NaN, p50Ms: Number.NaN };
      if (first.etag !== "") {
        const conditionalTimes: number[] = [];
        let statements = Number.NaN;
        let status: number | string = 304;
        for (let sample = 0; sample < samples; sample += 1) {
          const result = await app.call("GET", path, 304, { "if-none-match": first.etag }).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
          if (typeof result === "string") {
            status = result.slice(0, 120);
            break;
          }
          conditionalTimes.push(result.ms);
          statements = result.queries;
        }
        conditional = { status, statements, p50Ms: median(conditionalTimes) };
      }
      rows.push({ locationId: location.id, products, p50Ms: median(times), statements: first.queries, conditional });
    }

    const statementCounts = new Set(rows.map((row) => row.statements));
    const smallest = rows[0];
    const largest = rows[rows.length - 1];
    const targets: TargetCheck[] = [
      {
        id: "menu-scaling-statements",
        description: `GET menu: statements constant from ${smallest?.products ?? "?"} to ${largest?.products ?? "?"} products`,
        value: rows.map((row) => `${row.products}: ${row.statements}`).join(", "),
        pass: statementCounts.size === 1,
      },
      {
        id: "menu-conditional-no-query",
        description: "GET menu with If-None-Match (cached read): 304 without a database statement",
        value: rows.map((row) => `${row.products}: ${row.conditional.status === 304 ? `304, ${row.conditional.statements} statements` : String(row.conditional.status)}`).join("; "),
        pass: rows.every((row) => row.conditional.status === 304 && row.conditional.statements === 0),
      },
    ];
    return {
      id: "menu",
      title: "Menu size 10 -> 5,000 products",
      description: `In-process through the REST handler: ${samples} GET menus per location (full read), and ${samples} with If-None-Match set to the ETag just served.`,
      tables: [
        {
          title: "GET menu by menu size",
          header: ["location", "products", "p50 ms", "x smallest", "statements", "If-None-Match", "statements (304)", "p50 ms (304)"],
          rows: rows.map((row) => [
            row.locationId,
            String(row.products),
            ms(row.p50Ms),
            ratio(row.p50Ms / (smallest?.p50Ms ?? Number.NaN)),
            String(row.statements),
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
