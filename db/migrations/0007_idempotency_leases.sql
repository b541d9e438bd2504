-- A write that acts outside the database before it commits (a payment at the card processor) cannot
-- hold its Idempotency-Key's record claim across that call; it leases the key first, so that a second
-- request with the same key is refused instead of charging a second card (db/schema/carts.ts).
CREATE TABLE "idempotency_leases" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_fingerprint" text NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_leases_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
CREATE INDEX "idempotency_leases_expires_idx" ON "idempotency_leases" USING btree ("expires_at");