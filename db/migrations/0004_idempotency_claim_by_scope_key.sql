-- One record per (scope, key): a request claims its Idempotency-Key with a single insert that
-- conflicts on this key. Earlier a key could hold an expired record of one operation and a live one
-- of another; keep only the newest of each (scope, key) before the new key is added.
DELETE FROM "idempotency_records" AS "older"
USING "idempotency_records" AS "newer"
WHERE "older"."scope" = "newer"."scope" AND "older"."key" = "newer"."key"
  AND ("older"."expires_at", "older"."operation") < ("newer"."expires_at", "newer"."operation");--> statement-breakpoint
DROP INDEX "idempotency_scope_key_idx";--> statement-breakpoint
ALTER TABLE "idempotency_records" DROP CONSTRAINT "idempotency_records_scope_operation_key_pk";--> statement-breakpoint
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_scope_key_pk" PRIMARY KEY("scope","key");
