import { z } from "zod";
import type { AppDeps } from "../app/deps";
import { publish } from "../catalog-admin/publish";

/**
 * POST /api/e2e/publish: lets the browser tests change the catalog mid-test (a price rises between
 * cart and checkout). It exists in every build so the tests exercise the build that ships, but it
 * answers 404 unless E2E_ADMIN_ROUTES is on, which only the Playwright web server sets (env.ts
 * refuses it on Vercel). It is a test fixture, not an admin API: no envelope, no idempotency.
 */
const minor = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const id = z.string().min(1).max(128);

const bodySchema = z.strictObject({
  locationId: id,
  changes: z
    .array(
      z.discriminatedUnion("kind", [
        z.strictObject({ kind: z.literal("productPrice"), productId: id, priceMinor: minor }),
        z.strictObject({ kind: z.literal("productAvailability"), productId: id, available: z.boolean() }),
        z.strictObject({ kind: z.literal("modifierOptionPrice"), productId: id, groupId: id, optionId: id, priceMinor: minor }),
      ]),
    )
    .min(1)
    .max(20),
});

export type E2eAdminResponse = { status: number; body: unknown };

export async function handleE2ePublish(deps: AppDeps, bodyText: string): Promise<E2eAdminResponse> {
  if (!deps.env.E2E_ADMIN_ROUTES) return { status: 404, body: { code: "NOT_FOUND", message: "Not found" } };
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    return { status: 400, body: { code: "VALIDATION_ERROR", message: "The body is not JSON" } };
  }
  const parsed = bodySchema.safeParse(json);
  if (!parsed.success) return { status: 400, body: { code: "VALIDATION_ERROR", message: z.prettifyError(parsed.error) } };
  try {
    const result = await publish(deps.database.db, parsed.data.locationId, parsed.data.changes);
    // Cached catalog reads predate the publication.
    deps.responseCache.clear();
    return { status: 200, body: result };
  } catch (error) {
    // publish() throws plain errors for unknown locations, products and options.
    return { status: 400, body: { code: "VALIDATION_ERROR", message: error instanceof Error ? error.message : String(error) } };
  }
}
