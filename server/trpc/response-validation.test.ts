import { initTRPC, TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseEnv } from "../env";
import { appRouter } from "../routers";
import { setResponseValidation } from "./response-validation";

const t = initTRPC.create();
const badRouter = t.router({
  // Declares a number, returns a string: what a service bug would look like.
  broken: t.procedure.output(z.object({ total: z.number() })).query(() => ({ total: "12.50" }) as unknown as { total: number }),
  unchecked: t.procedure.query(() => "no schema"),
});
const caller = t.createCallerFactory(badRouter)({});

const outputMiddlewares = () =>
  Object.values(appRouter._def.procedures as unknown as Record<string, { _def: { middlewares: { _type?: string }[]; output?: unknown } }>).map((procedure) => ({
    hasSchema: procedure._def.output !== undefined,
    outputs: procedure._def.middlewares.filter((middleware) => middleware._type === "output").length,
  }));

describe("response validation", () => {
  it("on: a response that breaks its schema fails the call with an internal error", async () => {
    setResponseValidation(badRouter, true);
    const failure = await caller.broken().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TRPCError);
    expect((failure as TRPCError).code).toBe("INTERNAL_SERVER_ERROR");
  });

  it("off: the response passes as the service built it; on again restores the check", async () => {
    setResponseValidation(badRouter, false);
    await expect(caller.broken()).resolves.toEqual({ total: "12.50" });
    await expect(caller.unchecked()).resolves.toBe("no schema");
    setResponseValidation(badRouter, true);
    await expect(caller.broken()).rejects.toBeInstanceOf(TRPCError);
  });

  it("switches exactly the output check of every procedure of the app router, and back", () => {
    const before = outputMiddlewares();
    // Every operation documents its response, so every one carries the check.
    expect(before.length).toBeGreaterThan(30);
    expect(before.every((entry) => entry.hasSchema)).toBe(true);
    expect(before.every((entry) => entry.outputs === (entry.hasSchema ? 1 : 0))).toBe(true);
    try {
      setResponseValidation(appRouter, false);
      expect(outputMiddlewares().every((entry) => entry.outputs === 0)).toBe(true);
    } finally {
      setResponseValidation(appRouter, true);
    }
    expect(outputMiddlewares()).toEqual(before);
  });

  it("VALIDATE_RESPONSES defaults on outside production, off in production; an explicit value wins", () => {
    expect(parseEnv({}).VALIDATE_RESPONSES).toBe(true);
    expect(parseEnv({ NODE_ENV: "test" }).VALIDATE_RESPONSES).toBe(true);
    expect(parseEnv({ NODE_ENV: "production" }).VALIDATE_RESPONSES).toBe(false);
    expect(parseEnv({ NODE_ENV: "production", VALIDATE_RESPONSES: "true" }).VALIDATE_RESPONSES).toBe(true);
    expect(parseEnv({ VALIDATE_RESPONSES: "false" }).VALIDATE_RESPONSES).toBe(false);
  });
});
