import { createHash } from "node:crypto";
import { and, eq, gt } from "drizzle-orm";
import { fragment, joinFragments, rawFragment, type Fragment } from "../../db/fragment";
import type { Executor, Tx } from "../../db/client";
import { sendBeforeCommit, type Settled } from "../../db/last-statement";
import { fragmentRows } from "../../db/rows";
import { setClause } from "../../db/write-clauses";
import { idempotencyRecords } from "../../db/schema";
import { canonicalJson } from "../domain/fingerprint";
import { IDEMPOTENCY_KEY_PATTERN } from "../domain/identifiers";
import { AppError, validationError } from "../errors";
import { secureRandomBytes } from "../security/random";
import { deriveKey, hashToken } from "../security/tokens";
import { packAnswer, unpackAnswer } from "./answer-pack";
import type { AppDeps } from "../app/deps";
import type { RequestContext } from "../app/request-context";
import { bearerClaims } from "./customers/principal";


export type Outcome<T> = { body: T; status: number; headers: Record<string, string> };

/**
 * One write's claim on its Idempotency-Key: the key, who it belongs to and the request it was sent
 * with. The operation's kind makes it (server/trpc/procedures.ts), before the write's own checks.
 */
export type IdempotentRequest = {
  key: string;
  scope: string;
  operation: string;
  fingerprint: string;
  /** How to remove a credential from the answer before it is stored for an anonymous caller. */
  withoutCredential?: ((body: unknown) => unknown) | undefined;
};

/** The Idempotency-Key header, checked against the spec's pattern before anything else happens. */
export function checkIdempotencyKey(key: string | undefined): string {
  if (key === undefined || key === "") {
    throw new AppError("IDEMPOTENCY_KEY_REQUIRED", "This operation needs an Idempotency-Key header");
  }
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw validationError("Idempotency-Key must be 16-128 characters of A-Z a-z 0-9 . _ : -", [
      { path: "header.Idempotency-Key", message: `does not match ${IDEMPOTENCY_KEY_PATTERN.source}` },
    ]);
  }
  return key;
}

/**
 * Who the key belongs to, in the order credentials are honoured (server/services/cart-access.ts):
 * the cart capability (its hash, so nothing usable is stored), else the customer of a verified
 * bearer token (every session of one customer shares the scope, and a retry after logout still
 * replays the logout), else the hash of an unverifiable Authorization header, else for anonymous
 * writes the client address. One caller can never replay another caller's stored response.
 */
async function callerScope(ctx: RequestContext): Promise<string> {
  const { cartToken, bearer } = ctx.credential;
  if (cartToken) return `cart:${hashToken(cartToken)}`;
  if (bearer) {
    const claims = await bearerClaims(ctx);
    return claims ? `customer:${claims.sub}` : `bearer:${hashToken(bearer)}`;
  }
  return `ip:${ctx.clientIp}`;
}

/** The claim of one write: its key (400 when missing or malformed), its caller's scope and its request's fingerprint. */
export async function idempotentRequest(
  ctx: RequestContext,
  request: { operation: string; input: unknown; key: string | undefined; ifMatch: string | undefined; withoutCredential?: ((body: unknown) => unknown) | undefined },
): Promise<IdempotentRequest> {
  const key = checkIdempotencyKey(request.key);
  const fingerprint = createHash("sha256")
    .update(canonicalJson({ operation: request.operation, input: request.input, ifMatch: request.ifMatch ?? null }))
    .digest("hex");
  return { key, scope: await callerScope(ctx), operation: request.operation, fingerprint, withoutCredential: request.withoutCredential };
}

const sealKeys = new Map<string, Buffer>();
function sealKey(secret: string): Buffer {
  let key = sealKeys.get(secret);
  if (!key) {
    key = deriveKey(secret, "idempotency-response");
    sealKeys.set(secret, key);
  }
  return key;
}

/** The transaction-level advisory lock a key's claim takes (exported for tests that hold it). */
export function keyLockId(scope: string, key: string): bigint {
  return createHash("sha256").update(`${scope}|${key}`).digest().readBigInt64BE(0);
}

/** What a replay needs of a stored record. */
type StoredRecord = Pick<IdempotencyRecord, "requestFingerprint" | "statusCode" | "responseSealed" | "responseHeaders">;

function replayOf<T>(deps: AppDeps, request: IdempotentRequest, record: StoredRecord): Outcome<T> {
  if (record.requestFingerprint !== request.fingerprint) {
    throw new AppError("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was already used for a different request");
  }
  return {
    body: unpackAnswer(sealKey(deps.env.secret), record.responseSealed) as T,
    status: record.statusCode,
    headers: { ...record.responseHeaders, "Idempotent-Replayed": "true" },
  };
}

/**
 * Runs a write at most once per (caller, key), in one transaction with its record.
 *
 * - A concurrent duplicate finds the per-key advisory lock taken: 409 IDEMPOTENCY_IN_PROGRESS while
 *   the first run has not committed; once it has, every retry replays, also one that meets another
 *   retry holding the lock to replay.
 * - A retry of the identical request (same operation, input and If-Match) replays the stored
 *   status, body and headers, before any precondition is evaluated (`replayed: true`).
 * - The same key with a different request, another operation included: 409 IDEMPOTENCY_KEY_REUSED.
 * - A failed write rolls back with its record, so a retry runs again.
 * - `withoutCredential`: an operation whose answer carries a credential (the ordering session's cart
 *   token) names how to remove it. Anonymous callers are known only by their address, which every
 *   client behind one NAT shares, so for them the credential is never stored and a replay answers
 *   without it (the client that lost the first answer starts a new session). Callers known by a
 *   credential of their own get the whole answer replayed, and so does sign-in's verify-otp: its
 *   request carries the proof that earned the session token (the challenge's methodId and its
 *   one-time code), so the replay gives the token only to whoever can present that proof again.
 *
 * The first request of a key costs two statements: the claim, then the answer written over it, which
 * carries the use case's last statement when it hands one over (`lastWrite`). The claim goes out
 * with BEGIN (the driver as patched, patches/postgres+3.4.9.patch), and `alongsideClaim` sends the
 * write's first read with them, before the claim's outcome is known (a cart mutation's cart read).
 * The answer's statement and the COMMIT go to Postgres together (db/last-statement.ts): a write whose
 * answer was not stored cannot commit (migration 0005), so the COMMIT need not wait for it. A first
 * request therefore waits for Postgres twice.
 *
 * A replay is answered as soon as the claim has found the stored record, without waiting for its
 * transaction's COMMIT: the transaction wrote nothing (the claim's insert did not happen), so whether
 * that COMMIT succeeds changes nothing, and the replay waits for Postgres once.
 */
export async function runIdempotent<T>(
  deps: AppDeps,
  request: IdempotentRequest,
  execute: (tx: Tx) => Promise<Outcome<T>>,
  alongsideClaim?: (tx: Tx) => void,
): Promise<Outcome<T> & { replayed: boolean }> {
  const { env, database, now } = deps;
  const { scope, key } = request;
  let answerWrite: { sent: { result: Promise<Settled<{ written: number; row_version?: string | null }>> }; last: LastWrite | undefined } | undefined;
  let answerReplay: (replay: { value: Outcome<T> & { replayed: boolean } }) => void = () => undefined;
  const replayFound = new Promise<{ value: Outcome<T> & { replayed: boolean } }>((resolve) => {
    answerReplay = resolve;
  });
  const transaction = database.db
    .transaction(async (tx): Promise<Outcome<T> & { replayed: boolean }> => {
      const current = now();
      const claiming = claimKey(tx, request, current, new Date(current.getTime() + env.IDEMPOTENCY_RETENTION_HOURS * 3_600_000));
      // Sent now, the write's first read goes to Postgres in the same round trip as the claim (the
      // driver pipelines a transaction's statements), and runs after it; a replay leaves it unread.
      alongsideClaim?.(tx);
      const claim = await claiming;
      if (claim.state === "taken") {
        // Only a committed record can be in the way: whoever wrote it held the key's lock until its commit.
        // The claim's own snapshot may predate that commit; then it is read again.
        const existing = claim.record ?? (await liveRecord(tx, scope, key, current));
        if (existing) {
          const replay = { ...replayOf<T>(deps, request, existing), replayed: true };
          answerReplay({ value: replay });
          return replay;
        }
      }
      if (claim.state !== "claimed") {
        throw new AppError("IDEMPOTENCY_IN_PROGRESS", "A request with this Idempotency-Key is still being processed; retry shortly", {
          headers: { "Retry-After": "1" },
        });
      }
      lastWrites.set(tx, undefined);
      const outcome = await execute(tx);
      const stored = request.withoutCredential && isAnonymousScope(scope) ? request.withoutCredential(outcome.body) : outcome.body;
      const answer = { statusCode: outcome.status, responseSealed: packAnswer(sealKey(env.secret), stored), responseHeaders: outcome.headers };
      const last = lastWrites.get(tx);
      lastWrites.delete(tx);
      const storeAnswer = fragment`update idempotency_records set ${setClause(idempotencyRecords, answer)} where scope = ${scope} and key = ${key}`;
      // The answer is stored only if the use case's last statement wrote its row; if not, the record
      // keeps no answer and migration 0005's check refuses the COMMIT: nothing of the write is kept.
      // `idempotency_claim_held` (evaluated once, whatever the WITH wrote) fails the whole statement
      // unless it runs in the transaction holding the claim: the driver may send it again after the
      // COMMIT (a prepared statement the server lost), where it must not commit the write alone.
      const lastWriteFirst = last ? fragment`${lastWriteWith(last)}, ` : noText;
      const onlyIfWritten = last ? rawFragment(" and exists (select 1 from last_write)") : noText;
      const rowVersion = last?.onWritten ? rawFragment(", (select row_version from last_write) as row_version") : noText;
      const statement = fragment`with ${lastWriteFirst}stored as (${storeAnswer}${onlyIfWritten} returning 1)
        select (select count(*) from stored)::int as written, idempotency_claim_held(${scope}, ${key}) as held${rowVersion}`;
      // The COMMIT goes to Postgres with this statement, in one round trip; its result is read below.
      answerWrite = { sent: await sendBeforeCommit(tx, statement), last };
      return { ...outcome, replayed: false };
    })
    .then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
  const ended = await Promise.race([transaction, replayFound]);
  let written: { version: string; onWritten: (rowVersion: string) => void } | undefined;
  if (answerWrite) {
    const stored = await answerWrite.sent.result;
    // A failed statement aborted the transaction, and the COMMIT after it rolled the whole write back.
    if ("error" in stored) throw stored.error;
    if (!stored.rows[0]?.written) {
      if (answerWrite.last) await answerWrite.last.onNoRow(database.db);
      throw new Error("the write's answer was not stored: its record was not found");
    }
    const version = stored.rows[0].row_version;
    const onWritten = answerWrite.last?.onWritten;
    if (onWritten && typeof version === "string") written = { version, onWritten };
  }
  if ("error" in ended) throw ended.error;
  // Committed: the row is now at the version its last statement wrote.
  written?.onWritten(written.version);
  return ended.value;
}

/**
 * A use case's last statement, held back to go with the stored answer. `onNoRow` explains a
 * statement that changed nothing, on an executor that can still read: the transaction has ended by
 * then when the statement went with the stored answer.
 */
type LastWrite = { statement: Fragment; onNoRow: (executor: Executor) => Promise<never>; onWritten?: ((rowVersion: string) => void) | undefined; alongside: readonly Fragment[] };
/** The transactions `runIdempotent` opened and is running the write of, with the last statement each has handed over. */
const noText = rawFragment("");
const lastWrites = new WeakMap<Tx, LastWrite | undefined>();

/**
 * Runs a use case's last statement, an INSERT or UPDATE ... RETURNING one row that nothing of the use
 * case reads after it. Inside the transaction `runIdempotent` opened, it is held back and sent with the
 * stored answer as one statement (the answer's UPDATE with this one as its data-modifying WITH): one
 * round trip fewer for every cart mutation. When the statement changes nothing (a compare-and-set that
 * lost), no answer is stored, the write rolls back, and `onNoRow` runs after it; it must throw.
 * `onWritten`: the statement returns its row's version `as row_version`, which `onWritten` is told once
 * the write has committed (kept-cart-lines.ts). Anywhere else the statement runs at once, `onNoRow` runs
 * in the transaction, and `onWritten` is not called: the caller's transaction may yet write the row
 * again under the same xmin, or roll back.
 * `alongside`: more data-modifying statements that go in the same statement, as WITH bodies that may
 * name `last_write` (the row the last statement wrote, if any): a cart's line rows (cart-lines.ts).
 */
export async function lastWrite(
  tx: Tx,
  statement: Fragment,
  onNoRow: LastWrite["onNoRow"],
  onWritten?: LastWrite["onWritten"],
  alongside: readonly Fragment[] = [],
): Promise<void> {
  if (lastWrites.has(tx)) {
    if (lastWrites.get(tx)) throw new Error("a write's transaction has one last statement");
    lastWrites.set(tx, { statement, onNoRow, onWritten, alongside });
    return;
  }
  const rows = await writeNow(tx, statement, alongside);
  if (rows.length === 0) await onNoRow(tx);
}

/** A last statement with what goes alongside it (lastWrite), run at once, outside any stored answer: the rows it wrote. */
export function writeNow(executor: Executor, statement: Fragment, alongside: readonly Fragment[]): Promise<unknown[]> {
  return fragmentRows(executor, alongside.length === 0 ? statement : fragment`with ${lastWriteWith({ statement, alongside })} select 1 from last_write`);
}

/** `last_write as (...), alongside_1 as (...), ...`: the WITH list of a last statement and what goes alongside it. */
function lastWriteWith(last: Pick<LastWrite, "statement" | "alongside">): Fragment {
  const parts = [fragment`last_write as (${last.statement})`, ...last.alongside.map((write, index) => fragment`${rawFragment(`alongside_${index + 1} as (`)}${write})`)];
  return joinFragments(parts, ", ");
}

/**
 * One statement: take the key's transaction-scoped advisory lock (without waiting) and, holding it,
 * insert the key's record, or take over an expired one. The row is a placeholder (status 0, no
 * answer) that only this transaction sees; the answer is written over it before the commit.
 * `busy`: another transaction holds the key. `taken`: a live record exists (so it is committed), and
 * comes back with the claim when the statement's snapshot already sees it (a replay in one statement).
 */
async function claimKey(tx: Tx, request: IdempotentRequest, now: Date, expiresAt: Date): Promise<{ state: "claimed" | "busy" } | { state: "taken"; record: StoredRecord | undefined }> {
  const { scope, key, operation, fingerprint } = request;
  const at = now.toISOString();
  const [row] = await fragmentRows<{ locked: boolean; claimed: boolean; record: StoredRecord | string | null }>(
    tx,
    fragment`with lock as (select pg_try_advisory_xact_lock(${keyLockId(scope, key)}) as locked),
      claim as (
        insert into idempotency_records (scope, operation, key, request_fingerprint, status_code, response_sealed, response_headers, created_at, expires_at)
        select ${scope}, ${operation}, ${key}, ${fingerprint}, 0, '', '{}'::jsonb, ${at}::timestamptz, ${expiresAt.toISOString()}::timestamptz from lock where locked
        on conflict (scope, key) do update set
          operation = excluded.operation, request_fingerprint = excluded.request_fingerprint, status_code = 0, response_sealed = '',
          response_headers = '{}'::jsonb, created_at = excluded.created_at, expires_at = excluded.expires_at
        where idempotency_records.expires_at <= ${at}::timestamptz
        returning 1
      )
      select (select locked from lock) as locked, exists (select 1 from claim) as claimed,
        (select json_build_object('requestFingerprint', request_fingerprint, 'statusCode', status_code, 'responseSealed', response_sealed, 'responseHeaders', response_headers)
           from idempotency_records where scope = ${scope} and key = ${key} and expires_at > ${at}::timestamptz) as record`,
  );
  if (row?.claimed) return { state: "claimed" };
  // Whether JSON arrives parsed or as text is the driver's choice; take either.
  const record = typeof row?.record === "string" ? (JSON.parse(row.record) as StoredRecord) : (row?.record ?? undefined);
  // Held by another transaction: a first run of the key (its record is not visible before it commits:
  // busy), or another retry replaying a committed answer, which this one replays too.
  if (!row?.locked) return record ? { state: "taken", record } : { state: "busy" };
  return { state: "taken", record };
}

/**
 * For writes with an outside side effect between transactions (a card processor call): the stored
 * outcome of this key, looked up before any work starts, so a retry of a completed request never
 * repeats the work. Undefined when nothing is stored yet; the work then ends in `runIdempotent`,
 * which stores the outcome (a concurrent duplicate meets its lock or replays there).
 */
export async function storedOutcome<T>(deps: AppDeps, request: IdempotentRequest): Promise<Outcome<T> | undefined> {
  const existing = await liveRecord(deps.database.db, request.scope, request.key, deps.now());
  return existing ? replayOf<T>(deps, request, existing) : undefined;
}

/**
 * How long a write that acts outside before it commits holds its key: well past the card
 * processor's and courier's timeouts (STRIPE_TIMEOUT_MS, COURIER_TIMEOUT_MS), so that only a crashed
 * instance's lease is ever taken over.
 */
export const KEY_LEASE_MS = 120_000;

/** A held key: `release` drops it, for a write that failed and stored no outcome, so a retry runs again. */
export type KeyLease = { release: () => Promise<void> };

/**
 * For a write with an outside side effect between transactions (a card processor call), before any
 * work starts, in one statement: this key's stored outcome, or else a lease on the key while the
 * write runs. Without the lease two requests with one key and different bodies could both charge,
 * the second learning of the reuse only when it stored its answer. A retry of a completed request
 * replays (or is 409 IDEMPOTENCY_KEY_REUSED for another body) without repeating the work; a second
 * request of a key whose first is still running is refused, 409 IDEMPOTENCY_KEY_REUSED for another
 * body and IDEMPOTENCY_IN_PROGRESS for the same one. The write still claims the key's record in its
 * final transaction (`runIdempotent`). A lease that succeeded is left to expire: the stored record
 * answers every later request of the key first.
 */
export async function storedOutcomeOrLease<T>(deps: AppDeps, request: IdempotentRequest): Promise<{ stored: Outcome<T> } | { lease: KeyLease }> {
  const { scope, key, fingerprint } = request;
  const now = deps.now();
  const at = now.toISOString();
  const holder = secureRandomBytes(12).toString("base64url");
  const [row] = await fragmentRows<{ leased: boolean; heldFor: string | null; record: StoredRecord | string | null }>(
    deps.database.db,
    fragment`with record as (
        select request_fingerprint, status_code, response_sealed, response_headers from idempotency_records
        where scope = ${scope} and key = ${key} and expires_at > ${at}::timestamptz),
      lease as (
        insert into idempotency_leases (scope, key, request_fingerprint, holder, expires_at)
        select ${scope}, ${key}, ${fingerprint}, ${holder}, ${new Date(now.getTime() + KEY_LEASE_MS).toISOString()}::timestamptz
        where not exists (select 1 from record)
        on conflict (scope, key) do update set request_fingerprint = excluded.request_fingerprint, holder = excluded.holder, expires_at = excluded.expires_at
        where idempotency_leases.expires_at <= ${at}::timestamptz
        returning 1)
      select exists (select 1 from lease) as "leased",
        (select request_fingerprint from idempotency_leases where scope = ${scope} and key = ${key} and expires_at > ${at}::timestamptz) as "heldFor",
        (select json_build_object('requestFingerprint', request_fingerprint, 'statusCode', status_code, 'responseSealed', response_sealed, 'responseHeaders', response_headers)
           from record) as "record"`,
  );
  // Whether JSON arrives parsed or as text is the driver's choice; take either.
  const record = typeof row?.record === "string" ? (JSON.parse(row.record) as StoredRecord) : (row?.record ?? undefined);
  if (record) return { stored: replayOf<T>(deps, request, record) };
  if (row?.leased) {
    const drop = () => fragmentRows(deps.database.db, fragment`delete from idempotency_leases where scope = ${scope} and key = ${key} and holder = ${holder}`);
    // Tried up to three times: the write often failed because Postgres dropped its connections, and
    // an attempt may meet a pooled connection the driver has not yet seen closed. A lease left behind
    // holds the key (409 IDEMPOTENCY_IN_PROGRESS to its retries) until it expires.
    return { lease: { release: () => drop().catch(drop).catch(drop).then(() => undefined) } };
  }
  // The statement's snapshot may predate a lease taken at the same moment: then its body is unknown.
  if (row?.heldFor && row.heldFor !== fingerprint) {
    throw new AppError("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key is in use by a different request");
  }
  throw new AppError("IDEMPOTENCY_IN_PROGRESS", "A request with this Idempotency-Key is still being processed; retry shortly", { headers: { "Retry-After": "1" } });
}

const isAnonymousScope = (scope: string) => scope.startsWith("ip:");

/** The caller's unexpired record of this key, whatever operation it was used for. */
async function liveRecord(db: Executor, scope: string, key: string, now: Date): Promise<IdempotencyRecord | undefined> {
  const [record] = await db
    .select()
    .from(idempotencyRecords)
    .where(and(eq(idempotencyRecords.scope, scope), eq(idempotencyRecords.key, key), gt(idempotencyRecords.expiresAt, now)));
  return record;
}

type IdempotencyRecord = typeof idempotencyRecords.$inferSelect;
