import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import createClient from "openapi-fetch";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REST_PREFIX } from "../../server/http/rest-handler";
import { buildOpenApiDocument } from "../../server/openapi/document";
import { chowderCup } from "../checkout-helpers";
import { createTestApp, idemKey, mutate, startCart, type TestApp } from "../harness";

/**
 * A third-party client generated from the published document (openapi-typescript + openapi-fetch),
 * as its README tells a client to make one: it must type-check sending `{}` to the operations whose
 * input is all in the path, and the service must accept what it sends.
 */
let app: TestApp;
let workDir: string;
beforeAll(async () => {
  app = await createTestApp();
  const base = path.join(process.cwd(), ".test-tmp");
  mkdirSync(base, { recursive: true });
  workDir = mkdtempSync(path.join(base, "generated-client-"));
});
afterAll(async () => {
  await app.close();
  rmSync(workDir, { recursive: true, force: true });
});

const caller = `
import createClient from "openapi-fetch";
import type { paths } from "./api";

const client = createClient<paths>({ baseUrl: "https://storefront.example/api/v1/storefront" });
const header = { "Idempotency-Key": "k".repeat(16), "If-Match": '"cart-1"', "X-Cart-Token": "ct_x" };
export const session = () => client.POST("/locations/{locationId}/carts/{cartId}/payment-session", { params: { path: { locationId: "l", cartId: "c" }, header }, body: {} });
export const expire = () => client.DELETE("/locations/{locationId}/carts/{cartId}", { params: { path: { locationId: "l", cartId: "c" }, header }, body: {} });
`;

function typeErrors(files: Record<string, string>): string[] {
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(workDir, name), text);
  const program = ts.createProgram([path.join(workDir, "caller.ts")], { strict: true, noEmit: true, skipLibCheck: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022 });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

describe("a client generated from the OpenAPI document", () => {
  it("type-checks sending {} to payment-session and to DELETE cart", async () => {
    const generated = astToString(await openapiTS(JSON.parse(JSON.stringify(buildOpenApiDocument())) as Parameters<typeof openapiTS>[0]));
    expect(typeErrors({ "api.ts": generated, "caller.ts": caller })).toEqual([]);
    // The check has teeth: a member the document does not allow is a type error.
    expect(typeErrors({ "api.ts": generated, "caller.ts": caller.replace("body: {} });\nexport const expire", "body: { amount: 1 } });\nexport const expire") }).join("\n")).toMatch(/not assignable/);
  });

  it("is answered 200 by the service when it sends {}", async () => {
    const cart = await startCart(app);
    expect((await mutate(app, cart, "POST", "/items", chowderCup)).status).toBe(200);
    const client = createClient({ baseUrl: `http://localhost${REST_PREFIX}`, fetch: (request: Request) => app.fetch(request) });
    const { response } = await client.POST("/locations/{locationId}/carts/{cartId}/payment-session" as never, {
      params: { path: { locationId: cart.locationId, cartId: cart.cartId }, header: { "Idempotency-Key": idemKey(), "If-Match": cart.etag, "X-Cart-Token": cart.token } },
      body: {},
    } as never);
    expect(response.status).toBe(200);
  });
});
