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
/** Adds to throwaway carts before any size is timed, so the first size does not pay for a cold JIT. */
const JIT_WARMUP_ADDS = 200;
const INTERLEAVE_BLOCK = 10;
/**
 * Merges a line takes before its cart is replaced by a fresh one of the same size (grown untimed): a
 * line holds at most 99 (CART_MAX_LINE_QUANTITY), and a one-line cart's line takes every add.
 */
const MERGES_PER_LINE = 90;

type ScalingCart = { addItem: (variant: number) => Promise<{ ms: number; queries?: number }> };

/**
 * One size's pair of carts, the service's and the floor's, each replaced by a fresh one of the same
 * size (grown untimed, both at once) before any of its lines would pass the line quantity limit.
 */
async function cartPairOfSize(size: number, open: () => Promise<[ScalingCart, ScalingCart]>) {
  const grow = async () => {
    const pair = await open();
    for (let line = 0; line < size; line += 1) for (const cart of pair) await cart.addItem(line);
    return pair;
  };
  let pair = await grow();
  let merges = 0;
  return {
    size,
    /** The next add's variant (a line of the cart, in turn), after a fresh pair if the lines are full. */
    async nextVariant(): Promise<number> {
      if (merges >= size * MERGES_PER_LINE) {
        pair = await grow();
        merges = 0;
      }
      const variant = merges % size;
      merges += 1;
      return variant;
    },
    service: (variant: number) => pair[0].addItem(variant),
    floor: (variant: number) => pair[1].addItem(variant),
  };
}

/**
 * Add-item latency as the cart grows: in-process through the REST handler, one cart of each size
 * (grown untimed), then `samples` timed adds to each that merge into existing lines (so the size
 * stays put). The sizes are timed in turns, a block of ten adds each, the order rotating, so a
 * slower minute of the shared machine falls on every size alike (timed one size after the other, a
 * drift between the first size's minute and the last one's read as growth). The floor's add item
 * (bare SQL over one postgres.js connection, lines as rows of `cart_lines` like the service's) grows
 * carts of its own alongside, each block of the service's adds beside a block of the floor's to a
 * cart of the same size (the order alternating): how much of the growth is the data's.
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
    const openPair = async (): Promise<[ScalingCart, ScalingCart]> => [await openCart(app, locationId), await openFloorCart(floor, locationId)];
    const sizes = [];
    for (const size of CART_SCALING_SIZES) sizes.push({ pair: await cartPairOfSize(size, openPair), times: [] as number[], floorTimes: [] as number[], statements: new Set<number>() });
    // One untimed block per size first, so every size starts from the same warm state.
    for (const { pair } of sizes) for (let warm = 0; warm < INTERLEAVE_BLOCK; warm += 1) {
      const variant = await pair.nextVariant();
      await pair.service(variant);
      await pair.floor(variant);
    }
    for (let block = 0; block * INTERLEAVE_BLOCK < samples; block += 1) {
      const count = Math.min(INTERLEAVE_BLOCK, samples - block * INTERLEAVE_BLOCK);
      for (let turn = 0; turn < sizes.length; turn += 1) {
        const size = sizes[(block + turn) % sizes.length];
        if (!size) continue;
        const variants: number[] = [];
        for (let index = 0; index < count; index += 1) variants.push(await size.pair.nextVariant());
        const serviceBlock = async () => {
          for (const variant of variants) {
            const result = await size.pair.service(variant);
            size.times.push(result.ms);
            if (result.queries !== undefined) size.statements.add(result.queries);
          }
        };
        const floorBlock = async () => {
          for (const variant of variants) size.floorTimes.push((await size.pair.floor(variant)).ms);
        };
        // One add each, back to back, slowed both (each waits on a Postgres backend that sat idle
        // through the other's request), the service's one-line add by half: so blocks, the order alternating.
        if ((block + turn) % 2 === 0) {
          await serviceBlock();
          await floorBlock();
        } else {
          await floorBlock();
          await serviceBlock();
        }
      }
    }
    const rows = sizes.map((size) => ({ lines: size.pair.size, p50Ms: median(size.times), floorP50Ms: median(size.floorTimes), statements: [...size.statements] }));
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
      description: `In-process through the REST handler (one Postgres connection): ${samples} timed add-item requests per size, each merging into an existing line; the sizes timed in turns (blocks of ${INTERLEAVE_BLOCK}, the order rotating), each block beside as many adds of the floor (bench/controls/floor-sql.ts, its own connection) to a cart of its own of the same size.`,
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
