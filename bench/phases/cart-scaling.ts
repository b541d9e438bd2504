import { openInProcessApp } from "../query-count";
import type { TargetCheck } from "../targets";
import { openCart } from "./cart-session";
import { median, ms, ratio, type PhaseReport } from "./types";

export const CART_SCALING_SIZES = [1, 20, 100] as const;
export const CART_SCALING_MAX_RATIO = 3;
const WARMUP_ADDS = 5;

/**
 * Add-item latency as the cart grows: one cart, in-process through the REST handler, grown untimed
 * to each size, then `samples` timed adds that merge into existing lines (so the size stays put).
 */
export async function measureCartScaling(url: string, locationId: string, samples: number): Promise<PhaseReport> {
  const app = await openInProcessApp(url);
  try {
    const cart = await openCart(app, locationId);
    const rows: { lines: number; p50Ms: number; statements: number[] }[] = [];
    let lines = 0;
    for (const size of CART_SCALING_SIZES) {
      while (lines < size) await cart.addItem(lines++);
      // Warm up at this size (untimed), then time merges spread over every line.
      for (let warm = 0; warm < WARMUP_ADDS; warm += 1) await cart.addItem(warm % size);
      const times: number[] = [];
      const statements = new Set<number>();
      for (let sample = 0; sample < samples; sample += 1) {
        const result = await cart.addItem(sample % size);
        times.push(result.ms);
        statements.add(result.queries);
      }
      rows.push({ lines: size, p50Ms: median(times), statements: [...statements] });
    }
    const first = rows[0];
    const last = rows[rows.length - 1];
    const growth = (last?.p50Ms ?? Number.NaN) / (first?.p50Ms ?? Number.NaN);
    const statementSet = new Set(rows.flatMap((row) => row.statements));
    const targets: TargetCheck[] = [
      {
        id: "cart-scaling-latency",
        description: `add item p50 at ${last?.lines ?? "?"} lines <= ${CART_SCALING_MAX_RATIO} x at ${first?.lines ?? "?"} line`,
        value: `${ratio(growth)}x (${ms(first?.p50Ms ?? Number.NaN)} -> ${ms(last?.p50Ms ?? Number.NaN)} ms)`,
        pass: growth <= CART_SCALING_MAX_RATIO,
      },
      {
        id: "cart-scaling-statements",
        description: "add item: statements constant in cart size (every timed add)",
        value: rows.map((row) => `${row.lines} lines: ${row.statements.join("/")}`).join(", "),
        pass: statementSet.size === 1,
      },
    ];
    return {
      id: "scaling",
      title: "Cart size 1 -> 20 -> 100 lines",
      description: `In-process through the REST handler (one Postgres connection): ${samples} timed add-item requests per size, each merging into an existing line.`,
      tables: [{ title: "add item by cart size", header: ["cart lines", "p50 ms", "x 1 line", "statements"], rows: rows.map((row) => [String(row.lines), ms(row.p50Ms), ratio(row.p50Ms / (first?.p50Ms ?? Number.NaN)), row.statements.join("/")]) }],
      targets,
      data: { samples, rows, growth },
    };
  } finally {
    await app.close();
  }
}
