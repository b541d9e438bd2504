import { createRequire } from "node:module";
import { initTRPC } from "@trpc/server";
import type * as TrpcToOpenapi from "trpc-to-openapi";
import type { OpenApiMeta } from "trpc-to-openapi";
import { describe, expect, it } from "vitest";
import { z } from "zod";

/**
 * patches/trpc-to-openapi+3.3.0.patch: the node-http adapter sends a body through the
 * `serializeBody` option when one is given (server/http/openapi-bridge.ts gives answerText), and
 * through JSON.stringify otherwise. Checked in both module formats of the installed package, so this
 * fails if the patch is missing from either.
 */
type Adapter = typeof TrpcToOpenapi;
const formats: [string, () => Promise<Adapter>][] = [
  ["CommonJS", () => Promise.resolve(createRequire(import.meta.url)("trpc-to-openapi") as Adapter)],
  ["ESM", () => import("trpc-to-openapi")],
];

const t = initTRPC.meta<OpenApiMeta>().create();
const router = t.router({
  answer: t.procedure
    .meta({ openapi: { method: "GET", path: "/answer" } })
    .input(z.object({}))
    .output(z.object({ id: z.string() }))
    .query(() => ({ id: "a" })),
});

async function send(adapter: Adapter, serializeBody?: (body: unknown) => string | undefined): Promise<string | undefined> {
  const handler = adapter.createOpenApiNodeHttpHandler({ router, ...(serializeBody ? { serializeBody } : {}) });
  const request = new Request("http://127.0.0.1/answer");
  return new Promise((resolve, reject) => {
    const response = { statusCode: 200, setHeader: () => undefined, end: (text?: string) => resolve(text) };
    // The adapter accepts a fetch Request in place of IncomingMessage, as the bridge hands it one.
    handler(request as never, response as never).catch(reject);
  });
}

describe("trpc-to-openapi's serializeBody option (patched)", () => {
  it.each(formats)("sends the body through it in the %s build, and JSON.stringify's text without it", async (_name, load) => {
    const adapter = await load();
    const seen: unknown[] = [];
    expect(await send(adapter, (body) => (seen.push(body), "as stored"))).toBe("as stored");
    expect(seen).toEqual([{ id: "a" }]);
    expect(await send(adapter)).toBe('{"id":"a"}');
  });
});
