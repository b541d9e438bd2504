-- A claimed Idempotency-Key record (status 0, no answer yet) must not outlive its transaction: the
-- write's answer is stored over it before the commit, or the commit fails and everything the write
-- did rolls back with it. The service sends the answer's statement and COMMIT in one round trip
-- (server/services/idempotency.ts), so the commit cannot wait for the statement's result; this
-- deferred check is what keeps a write that stored no answer (a lost compare-and-set, or a statement
-- that never reached the server) from committing half of itself.
--
-- The answer's statement also calls "idempotency_claim_held", which fails unless the statement sees
-- its key's claim, i.e. unless it runs inside the transaction that made the claim. postgres.js sends a
-- prepared statement again when the server no longer has it (a pooler's DEALLOCATE, a changed column
-- type); sent again after the COMMIT, outside any transaction, the statement would otherwise commit
-- the use case's write on its own.
CREATE FUNCTION "idempotency_record_answered"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "idempotency_records" WHERE "scope" = NEW."scope" AND "key" = NEW."key" AND "status_code" = 0) THEN
    RAISE EXCEPTION 'idempotency record committed without its answer' USING ERRCODE = 'check_violation', CONSTRAINT = 'idempotency_record_answered';
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "idempotency_record_answered"
  AFTER INSERT OR UPDATE ON "idempotency_records"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW."status_code" = 0)
  EXECUTE FUNCTION "idempotency_record_answered"();--> statement-breakpoint
CREATE FUNCTION "idempotency_claim_held"("claim_scope" text, "claim_key" text) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "idempotency_records" WHERE "scope" = "claim_scope" AND "key" = "claim_key" AND "status_code" = 0) THEN
    RAISE EXCEPTION 'the Idempotency-Key claim is not held by this statement''s transaction' USING ERRCODE = 'P0001';
  END IF;
  RETURN true;
END
$$;
