import { openFloorSql } from "../controls/floor-sql";
import { openInProcessApp } from "../query-count";
import type { TargetCheck } from "../targets";
import { openCart } from "./cart-session";
import { openFloorCart } from "./floor-cart";
import { median, ms, ratio, type PhaseReport } from "./types";

export const CART_SCALING_SIZES = [1, 20, 100] as const;
export const CART_SCALING_MAX_RATIO = 3;
/** Issue 16's target for the same growth, informative (reported, never the exit code). */
export const CART_SCALING_ISSUE_RATIO = 1.3;
const WARMUP_ADDS = 5;
/** Adds to throwaway carts before any size is timed, so the first size does not pay for a cold JIT. */
const JIT_WARMUP_ADDS = 200;
const INTERLEAVE_BLOCK = 10;

/**
 * Add-item latency as the cart grows: one cart, in-process through the REST handler, grown untimed
 * to each size, then `samples` timed adds that merge into existing lines (so the size stays put).
 * The floor's add item (bare SQL over one postgres.js connection, lines as rows of `cart_lines`
 * like the service's) grows a cart of its own alongside, its adds interleaved with the service's
 * in blocks of ten (the order alternating), so both see the same machine: how much of the growth is the data's.
 */
export async function measureCartScaling(url: string, locationId: string, samples: number): Promise<PhaseReport> {
  const app = await openInProcessApp(url);
  const floor = openFloorSql(url, 1);
  try {
    const [warmCart, warmFloorCart] = [await openCart(app, locationId), await openFloorCart(floor, locationId)];
    for (let warm = 0; warm < JIT_WARMUP_ADDS; warm += 1) {
      await warmCart.addItem(warm % 5);
      await warmFloorCart.addItem(warm % 5);
    }
    const cart = await openCart(app, locationId);
    const floorCart = await openFloorCart(floor, locationId);
    const rows: { lines: number; p50Ms: number; floorP50Ms: number; statements: number[] }[] = [];
    let lines = 0;
    for (const size of CART_SCALING_SIZES) {
      while (lines < size) {
        await cart.addItem(lines);
        await floorCart.addItem(lines);
        lines += 1;
      }
      // Warm up at this size (untimed), then time merges spread over every line.
      for (let warm = 0; warm < WARMUP_ADDS; warm += 1) {
        await cart.addItem(warm % size);
        await floorCart.addItem(warm % size);
      }
      const times: number[] = [];
      const floorTimes: number[] = [];
      const statements = new Set<number>();
      const serviceAdd = async (variant: number) => {
        const result = await cart.addItem(variant);
        times.push(result.ms);
        statements.add(result.queries);
      };
      const floorAdd = async (variant: number) => floorTimes.push((await floorCart.addItem(variant)).ms);
      // In blocks, the order alternating: one add each, back to back, slowed both (each waits on a
      // Postgres backend that sat idle through the other's request), the service's one-line add by half.
      for (let start = 0; start < samples; start += INTERLEAVE_BLOCK) {
        const order = (start / INTERLEAVE_BLOCK) % 2 === 0 ? [serviceAdd, floorAdd] : [floorAdd, serviceAdd];
        for (const add of order) for (let sample = start; sample < Math.min(samples, start + INTERLEAVE_BLOCK); sample += 1) await add(sample % size);
      }
      rows.push({ lines: size, p50Ms: median(times), floorP50Ms: median(floorTimes), statements: [...statements] });
    }
    const first = rows[0];
    const last = rows[rows.length - 1];
    const growth = (last?.p50Ms ?? Number.NaN) / (first?.p50Ms ?? Number.NaN);
    const floorGrowth = (last?.floorP50Ms ?? Number.NaN) / (first?.floorP50Ms ?? Number.NaN);
    const statementSet = new Set(rows.flatMap((row) => row.statements));
    const targets: TargetCheck[] = [
      {
        id: "cart-scaling-latency",
        description: `add item p50 at ${last?.lines ?? "?"} lines <= ${CART_SCALING_MAX_RATIO} x at ${first?.lines ?? "?"} line`,
        value: `${ratio(growth)}x (${ms(first?.p50Ms ?? Number.NaN)} -> ${ms(last?.p50Ms ?? Number.NaN)} ms)`,
        pass: growth <= CART_SCALING_MAX_RATIO,
      },
      {
        id: "cart-scaling-latency-issue-16",
        description: `add item p50 at ${last?.lines ?? "?"} lines <= ${CART_SCALING_ISSUE_RATIO} x at ${first?.lines ?? "?"} line [issue 16, informative]`,
        value: `${ratio(growth)}x; the floor's own: ${ratio(floorGrowth)}x (${ms(first?.floorP50Ms ?? Number.NaN)} -> ${ms(last?.floorP50Ms ?? Number.NaN)} ms)`,
        pass: growth <= CART_SCALING_ISSUE_RATIO,
        informative: true,
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
      description: `In-process through the REST handler (one Postgres connection): ${samples} timed add-item requests per size, each merging into an existing line; interleaved with as many adds of the floor (bench/controls/floor-sql.ts, its own connection) to a cart of its own of the same size.`,
      tables: [
        {
          title: "add item by cart size",
          header: ["cart lines", "p50 ms", "x 1 line", "floor p50 ms", "floor x 1 line", "service / floor", "statements"],
          rows: rows.map((row) => [
            String(row.lines),
            ms(row.p50Ms),
            ratio(row.p50Ms / (first?.p50Ms ?? Number.NaN)),
            ms(row.floorP50Ms),
            ratio(row.floorP50Ms / (first?.floorP50Ms ?? Number.NaN)),
            ratio(row.p50Ms / row.floorP50Ms),
            row.statements.join("/"),
          ]),
        },
      ],
      targets,
      data: { samples, rows, growth, floorGrowth },
    };
  } finally {
    await floor.end({ timeout: 1 });
    await app.close();
  }
}
