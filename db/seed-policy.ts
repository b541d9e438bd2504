import type { Env } from "../server/env";

export type SeedDecision = { seed: boolean; reason: string };

/**
 * Whether `npm run db:migrate` also loads the demo restaurants. Vercel preview deployments are
 * seeded so that QA finds a working storefront; production never is, whatever SEED_DEMO_DATA says;
 * anywhere else only when asked (self-hosted operators run `npm run db:seed` themselves).
 */
export function demoSeedDecision(env: Pick<Env, "SEED_DEMO_DATA" | "VERCEL_ENV">): SeedDecision {
  if (env.VERCEL_ENV === "production") return { seed: false, reason: "production deployments are never seeded" };
  if (env.SEED_DEMO_DATA === "false") return { seed: false, reason: "SEED_DEMO_DATA=false" };
  if (env.SEED_DEMO_DATA === "true") return { seed: true, reason: "SEED_DEMO_DATA=true" };
  if (env.VERCEL_ENV === "preview") return { seed: true, reason: "a Vercel preview deployment (VERCEL_ENV=preview)" };
  return { seed: false, reason: "not a preview deployment (run `npm run db:seed` to load the demo data)" };
}
