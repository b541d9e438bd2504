import { createRequire } from "node:module";
import { initTRPC } from "@trpc/server";
import type * as TrpcToOpenapi from "trpc-to-openapi";
import type { OpenApiMeta } from "trpc-to-openapi";
import { describe, expect, it } from "vitest";
import { z } from "zod";

/**
 * patches/trpc-to-openapi+3.3.0.patch: the node-http adapter works out what a procedure's input schema
 * asks of a request (input or none, array members of the query, coercion) on the procedure's first
 * request, not on every one. The schema below is lazy, so each time the adapter unwraps it shows: its
 * getter runs once for the adapter and once for zod's own parse, however many requests follow. What the
 * adapter does with the input is unchanged: a query's array member still becomes an array, and a number
 * is still coerced. Checked in both module formats of the installed package.
 */
type Adapter = typeof TrpcToOpenapi;
const formats: [string, () => Promise<Adapter>][] = [
  ["CommonJS", () => Promise.resolve(createRequire(import.meta.url)("trpc-to-openapi") as Adapter)],
  ["ESM", () => import("trpc-to-openapi")],
];

function routerCountingUnwraps() {
  const t = initTRPC.meta<OpenApiMeta>().create();
  const counter = { unwraps: 0 };
  const query = z.object({ tags: z.array(z.string()), limit: z.number().int() });
  const input = z.lazy(() => {
    counter.unwraps += 1;
    return query;
  });
  const router = t.router({
    search: t.procedure
      .meta({ openapi: { method: "GET", path: "/search" } })
      .input(input)
      .output(z.object({ tags: z.array(z.string()), limit: z.number() }))
      .query(({ input: parsed }) => parsed),
  });
  return { router, counter };
}

async function send(handler: ReturnType<Adapter["createOpenApiNodeHttpHandler"]>, url: string): Promise<{ status: number; body: string | undefined }> {
  const request = new Request(url);
  return new Promise((resolve, reject) => {
    const response = {
      statusCode: 200,
      setHeader: () => undefined,
      end(text?: string) {
        resolve({ status: response.statusCode, body: text });
      },
    };
    // The adapter accepts a fetch Request in place of IncomingMessage, as the bridge hands it one.
    handler(request as never, response as never).catch(reject);
  });
}

describe("trpc-to-openapi's input plan per procedure (patched)", () => {
  it.each(formats)("unwraps a procedure's input schema once, not per request, in the %s build", async (_name, load) => {
    const adapter = await load();
    const { router, counter } = routerCountingUnwraps();
    const handler = adapter.createOpenApiNodeHttpHandler({ router });
    const first = await send(handler, "http://127.0.0.1/search?tags=a&limit=5");
    expect(first).toEqual({ status: 200, body: '{"tags":["a"],"limit":5}' });
    const afterFirst = counter.unwraps;
    for (let request = 0; request < 3; request += 1) {
      expect(await send(handler, `http://127.0.0.1/search?tags=b${request}&limit=${request}`)).toEqual({ status: 200, body: `{"tags":["b${request}"],"limit":${request}}` });
    }
    expect(afterFirst).toBeGreaterThan(0);
    expect(counter.unwraps).toBe(afterFirst);
  });
});
