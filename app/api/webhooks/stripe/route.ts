import { getAppDeps } from "@/server/app/container";
import { createStripeWebhookHandler } from "@/server/webhooks/stripe";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = createStripeWebhookHandler(getAppDeps);
