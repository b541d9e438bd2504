import { initTRPC, TRPCError } from "@trpc/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseEnv } from "../env";
import { appRouter } from "../routers";
import { isResponseSchema, responseSchema, responseValidationEnabled, setResponseValidation } from "./response-validation";

const totalSchema = z.object({ total: z.number() });

const t = initTRPC.create();
const badRouter = t.router({
  // Declares a number, returns a string: what a service bug would look like.
  broken: t.procedure.output(responseSchema(totalSchema)).query(() => ({ total: "12.50" }) as unknown as { total: number }),
  // Valid, with a key the schema does not declare: checking strips it, as tRPC's parse always did.
  extra: t.procedure.output(responseSchema(totalSchema)).query(() => ({ total: 12.5, internal: "row" })),
  unchecked: t.procedure.query(() => "no schema"),
});
const caller = t.createCallerFactory(badRouter)({});

// The switch is process-wide: every test leaves it as the suite runs (on).
afterEach(() => setResponseValidation(true));

describe("response validation", () => {
  it("is on by default in a test process", () => {
    expect(responseValidationEnabled()).toBe(true);
  });

  it("on: a response that breaks its schema fails the call with an internal error", async () => {
    setResponseValidation(true);
    const failure = await caller.broken().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TRPCError);
    expect((failure as TRPCError).code).toBe("INTERNAL_SERVER_ERROR");
    expect((failure as TRPCError).message).toBe("Output validation failed");
    await expect(caller.extra()).resolves.toStrictEqual({ total: 12.5 });
  });

  it("off: the response passes as the service built it; on again restores the check", async () => {
    setResponseValidation(false);
    await expect(caller.broken()).resolves.toEqual({ total: "12.50" });
    await expect(caller.extra()).resolves.toStrictEqual({ total: 12.5, internal: "row" });
    await expect(caller.unchecked()).resolves.toBe("no schema");
    setResponseValidation(true);
    await expect(caller.broken()).rejects.toBeInstanceOf(TRPCError);
  });

  it("the declared schema's Standard Schema entry point follows the same switch", async () => {
    const declared = responseSchema(totalSchema);
    expect((await declared["~standard"].validate({ total: "12.50" })).issues).toBeDefined();
    setResponseValidation(false);
    expect(await declared["~standard"].validate({ total: "12.50" })).toEqual({ value: { total: "12.50" } });
  });

  it("every procedure of the app router declares its output through responseSchema", () => {
    // Read-only, the field trpc-to-openapi documents the response from (as server/openapi/document.test.ts reads meta).
    const outputs = Object.values(appRouter._def.procedures as unknown as Record<string, { _def: { output?: unknown } }>).map((procedure) => procedure._def.output);
    // Every operation documents its response, so every one carries the check.
    expect(outputs.length).toBeGreaterThan(30);
    expect(outputs.filter((output) => !isResponseSchema(output))).toEqual([]);
    expect(isResponseSchema(totalSchema)).toBe(false);
  });

  it("VALIDATE_RESPONSES defaults on outside production, off in production; an explicit value wins", () => {
    expect(parseEnv({}).VALIDATE_RESPONSES).toBe(true);
    expect(parseEnv({ NODE_ENV: "test" }).VALIDATE_RESPONSES).toBe(true);
    expect(parseEnv({ NODE_ENV: "production" }).VALIDATE_RESPONSES).toBe(false);
    expect(parseEnv({ NODE_ENV: "production", VALIDATE_RESPONSES: "true" }).VALIDATE_RESPONSES).toBe(true);
    expect(parseEnv({ VALIDATE_RESPONSES: "false" }).VALIDATE_RESPONSES).toBe(false);
  });
});
