import type { z } from "zod";
import type { Executor, Tx } from "../../db/client";
import type { PresentedCredential, RequestContext } from "../app/request-context";
import { parseIfMatch } from "../domain/etag";
import { AppError, validationError } from "../errors";
import { idempotentRequest, runIdempotent, storedOutcome, storedOutcomeOrLease, type IdempotentRequest, type Outcome } from "../services/idempotency";
import type { CartMutationContext, Commit, CommittingCartMutation, CommittingWrite, TransactionalWrite } from "../services/operation-context";
import { middleware, procedure, refuseUnstorableText, type StorefrontMeta } from "./init";
import { credentials, kindRules, type OperationKind } from "./operation-kinds";
import { responseSchema } from "./response-validation";
import { cartReadAhead, keptVersionOf } from "../services/cart-access";
import { readSessionAhead, requireLiveSession, type SessionLock } from "../services/customers/principal";

/**
 * Procedures, one builder per way an operation runs. Each takes the operation's meta (its kind, from
 * server/routers/meta.ts), and the kind's rules run as tRPC middlewares, in this order:
 *
 * 1. before the input is parsed (presentRequest, every procedure): text Postgres cannot store is
 *    refused (400), and the headers the kind's credential accepts become `ctx.credential` (presented,
 *    not yet verified: the use case verifies them after an idempotent replay, in its transaction);
 * 2. after it (writeRules, writes): If-Match (cart mutations): `ctx.expectedRevision`, or 428 / 400;
 *    then Idempotency-Key: 400 without a valid key; then the write runs under its key.
 *
 * One middleware for each step, not one per rule: every tRPC middleware step copies the call's
 * options and context, and awaits the next.
 *
 * A transactional write runs inside the transaction its kind opens: the key's lock, a replay of the
 * stored answer, the write (`ctx.tx`) and the answer stored with it commit together. A write that
 * calls an outside service first (card processor, courier, SMS) cannot hold a transaction across
 * that call: its kind replays a stored answer before the use case starts, and the use case calls
 * `ctx.commit` once, with its final transaction, which runs under the key the same way.
 *
 * A tRPC middleware cannot answer without the resolver (its result type is internal), so a replay
 * reaches the client through the resolver these builders wrap: the use case never runs for it.
 * Status comes from the meta (`successStatus`); services set only response headers (ETag).
 */
type Meta = StorefrontMeta & { kind: OperationKind };

function kindOf(meta: StorefrontMeta | undefined): OperationKind {
  if (!meta?.kind) throw new Error("a procedure without an operation kind");
  return meta.kind;
}

const headerOf: Record<string, keyof PresentedCredential> = { "X-Cart-Token": "cartToken", "X-Receipt-Token": "receiptToken", Authorization: "bearer" };

/** The credential headers the kind accepts, and no other. */
function presentedCredential(ctx: RequestContext, kind: OperationKind): PresentedCredential {
  const credential: PresentedCredential = {};
  for (const name of credentials[kindRules[kind].credential].headers) {
    const value = ctx.header(name.toLowerCase());
    const field = headerOf[name];
    if (value !== undefined && field) credential[field] = value;
  }
  return credential;
}

/** Every procedure's first middleware: unstorable text refused, then the kind's credential presented. */
const presentRequest = middleware(async ({ ctx, meta, getRawInput, next }) => {
  refuseUnstorableText(await getRawInput());
  return next({ ctx: { credential: presentedCredential(ctx, kindOf(meta)) } });
});

/** The revision the client says it holds. Missing If-Match: 428. Malformed: 400. */
function expectedRevisionOf(ctx: RequestContext): number {
  const parsed = parseIfMatch(ctx.header("if-match"));
  if (parsed.kind === "missing") {
    throw new AppError("PRECONDITION_REQUIRED", 'Cart changes need If-Match with the current cart ETag, e.g. "cart-3"');
  }
  if (parsed.kind === "malformed") {
    throw validationError('If-Match must be a cart ETag such as "cart-3" or W/"cart-3"', [{ path: "header.If-Match", message: 'expected "cart-<revision>"' }]);
  }
  return parsed.revision;
}

/** What the write middleware hands the resolver: a stored answer to replay, or the way to run the write. */
type Run = { kind: "replay"; body: unknown } | { kind: "transaction"; tx: Tx } | { kind: "commit"; commit: Commit };

type WriteOptions = {
  mode: "transaction" | "commit";
  withoutCredential?: ((body: unknown) => unknown) | undefined;
  /** The write's first read, sent with the key's claim (transaction mode). */
  alongsideClaim?: ((tx: Tx, input: unknown, ctx: RequestContext) => void) | undefined;
  /** How the customer's session is read with the claim (services/customers/principal.ts SessionLock). */
  sessionLock?: SessionLock | undefined;
};

function answer(ctx: RequestContext, outcome: Outcome<unknown>): void {
  ctx.response.status = outcome.status;
  Object.assign(ctx.response.headers, outcome.headers);
}

/**
 * Before a stored answer goes to a caller known by a customer token: 401 unless its session still
 * lives, as everywhere else. Records are scoped by customer, so without this a signed-out token
 * would replay the answers of every session of its customer (carts, a payment's client secret).
 * The write that ends the session (`sessionLock: "update"`, the logout) replays to it: its retry must
 * learn that it succeeded. `executor`: the claim's transaction, whose session read was sent with the
 * claim (readSessionAhead), or the database outside one.
 */
async function requireLiveSessionForReplay(ctx: RequestContext, executor: Executor, options: WriteOptions): Promise<void> {
  if (options.sessionLock !== "update") await requireLiveSession(ctx, executor);
}

function writeRules(options: WriteOptions) {
  return middleware(async ({ ctx, meta, path, input, next }) => {
    const kind = kindOf(meta);
    const rules = kindRules[kind];
    const expectedRevision = rules.ifMatch ? expectedRevisionOf(ctx) : undefined;
    const request: IdempotentRequest = await idempotentRequest(ctx, {
      operation: path,
      input,
      key: ctx.header("idempotency-key"),
      ifMatch: ctx.header("if-match"),
      withoutCredential: options.withoutCredential,
    });
    ctx.response.status = meta?.successStatus ?? 200;
    const outcomeOf = (body: unknown): Outcome<unknown> => ({ body, status: ctx.response.status, headers: { ...ctx.response.headers } });
    const proceed = (run: Run) => next({ ctx: { expectedRevision, run } });
    const replay = (outcome: Outcome<unknown>) => {
      answer(ctx, outcome);
      return proceed({ kind: "replay", body: outcome.body });
    };

    if (options.mode === "commit") {
      const held = await storedOutcomeOrLease(ctx.deps, request);
      if ("stored" in held) {
        await requireLiveSessionForReplay(ctx, ctx.deps.database.db, options);
        return replay(held.stored);
      }
      const commit: Commit = async (execute) => {
        // No session check by the kind here: the use case decides (operation-kinds.ts liveSessionAtCommit).
        const outcome = await runIdempotent(ctx.deps, request, async (tx) => outcomeOf(await execute(tx)));
        if (outcome.replayed) answer(ctx, outcome);
        return outcome.body as Awaited<ReturnType<typeof execute>>;
      };
      const result = await proceed({ kind: "commit", commit });
      if (result.ok) return result;
      // Failed, it stored no outcome: a retry runs again. Unreleased (the database failing too), the
      // lease expires; the write's own error is the answer either way.
      await held.lease.release().catch(() => undefined);
      // The use case's checks ran outside any transaction, after the lookup above. An identical request
      // that stored its outcome in between (possible only once the lease expired, KEY_LEASE_MS) is
      // replayed, as it would have been before the checks.
      const storedSince = await storedOutcome(ctx.deps, request);
      if (!storedSince) return result;
      await requireLiveSessionForReplay(ctx, ctx.deps.database.db, options);
      ctx.response.headers = {};
      return replay(storedSince);
    }

    let ran: Awaited<ReturnType<typeof proceed>> | undefined;
    let claimTx: Tx | undefined;
    const { alongsideClaim } = options;
    const outcome = await runIdempotent(
      ctx.deps,
      request,
      async (tx) => {
        // A customer's write commits only while the session lives (operation-kinds.ts liveSessionAtCommit).
        if (rules.liveSessionAtCommit) await requireLiveSession(ctx, tx);
        const result = await proceed({ kind: "transaction", tx });
        // A failed write rolls back with its record: rethrown here, inside the transaction.
        if (!result.ok) throw result.error;
        ran = result;
        return outcomeOf(result.data);
      },
      (tx) => {
        claimTx = tx;
        alongsideClaim?.(tx, input, ctx);
        readSessionAhead(ctx, tx, options.sessionLock);
      },
    );
    if (ran) return ran;
    await requireLiveSessionForReplay(ctx, claimTx ?? ctx.deps.database.db, options);
    return replay(outcome);
  });
}

/** A read: the kind's credential is presented; the route adds input, output and resolver. */
export function readProcedure(meta: StorefrontMeta) {
  kindOf(meta);
  return procedure.meta(meta).use(presentRequest);
}

type Schemas<I extends z.ZodType, O extends z.ZodType> = { input: I; output: O };
/** What tRPC asks of a resolver: a value its output schema parses (the schema's input type). */
type Resolver<C, I extends z.ZodType, O extends z.ZodType> = (options: { ctx: C; input: z.output<I> }) => Promise<z.input<O>>;

function writeProcedure<C, I extends z.ZodType, O extends z.ZodType>(meta: Meta, schemas: Schemas<I, O>, options: WriteOptions, resolve: Resolver<C, I, O>) {
  return procedure
    .meta(meta)
    .use(presentRequest)
    .input(schemas.input)
    .use(writeRules(options))
    .output(responseSchema(schemas.output))
    .mutation(async ({ ctx, input }) => {
      const { run } = ctx;
      // tRPC types the answer as a conditional type it cannot resolve for a generic schema; the
      // output schema checks the value (with response validation on), as for every procedure.
      if (run.kind === "replay") return run.body as never;
      // Copied with Object.assign, `run` kept: a rest pattern (`{ run, ...rest }`) and a spread of its result cost
      // this resolver 0.015-0.035 ms of CPU per write (bench/profile.ts, self time, ordering session), and no use case reads `run`.
      const context = Object.assign({}, ctx, run.kind === "transaction" ? { tx: run.tx } : { commit: run.commit });
      // The context matches C by construction: the builders below pair each mode with its context type.
      return (await resolve({ ctx: context as C, input: input as z.output<I> })) as never;
    });
}

function withKind(meta: StorefrontMeta): Meta {
  return { ...meta, kind: kindOf(meta) };
}

/**
 * A write whose work is one transaction, run by its kind under the Idempotency-Key (`ctx.tx`).
 * `alongsideClaim`: the use case's first read, sent with the key's claim (services/read-ahead.ts).
 * `sessionLock: "update"`: the write changes the customer's session row (logout), so the session read
 * sent with the claim locks it for update, not for share.
 */
export function transactionalWrite<I extends z.ZodType, O extends z.ZodType>(
  meta: StorefrontMeta,
  schemas: Schemas<I, O>,
  resolve: Resolver<TransactionalWrite, I, O>,
  options: { withoutCredential?: (body: z.output<O>) => z.output<O>; alongsideClaim?: (tx: Tx, input: z.output<I>, ctx: RequestContext) => void; sessionLock?: SessionLock } = {},
) {
  return writeProcedure(
    withKind(meta),
    schemas,
    {
      mode: "transaction",
      // Both are called with this procedure's own answer and parsed input only.
      withoutCredential: options.withoutCredential as ((body: unknown) => unknown) | undefined,
      alongsideClaim: options.alongsideClaim as ((tx: Tx, input: unknown, ctx: RequestContext) => void) | undefined,
      sessionLock: options.sessionLock,
    },
    resolve,
  );
}

/** A write that calls an outside service first and ends with one `ctx.commit(tx => ...)`. */
export function committingWrite<I extends z.ZodType, O extends z.ZodType>(meta: StorefrontMeta, schemas: Schemas<I, O>, resolve: Resolver<CommittingWrite, I, O>) {
  return writeProcedure(withKind(meta), schemas, { mode: "commit" }, resolve);
}

function requireCartMutation(meta: StorefrontMeta): Meta {
  const kind = kindOf(meta);
  if (!kindRules[kind].ifMatch) throw new Error(`a cart mutation builder for a ${kind} operation`);
  return { ...meta, kind };
}

/** What every cart mutation's input names: the cart it changes. */
type CartAddress = { locationId: string; cartId: string };

/**
 * A cart mutation run in its kind's transaction: If-Match checked, `ctx.expectedRevision` and `ctx.tx`
 * given. Its cart (with location) is read with the key's claim, in one round trip (services/read-ahead.ts).
 */
export function cartMutation<I extends z.ZodType<CartAddress>, O extends z.ZodType>(meta: StorefrontMeta, schemas: Schemas<I, O>, resolve: Resolver<CartMutationContext, I, O>) {
  return writeProcedure(requireCartMutation(meta), schemas, { mode: "transaction", alongsideClaim: readAddressedCartAhead }, resolve);
}

function readAddressedCartAhead(tx: Tx, input: unknown, ctx: RequestContext): void {
  // The input has passed the schema, whose output the builder's type holds to a CartAddress.
  const { locationId, cartId } = input as CartAddress;
  cartReadAhead.send(tx, locationId, cartId, keptVersionOf(ctx, cartId));
}

/** A cart mutation that calls an outside service (the courier, the card processor) before its commit. */
export function committingCartMutation<I extends z.ZodType, O extends z.ZodType>(meta: StorefrontMeta, schemas: Schemas<I, O>, resolve: Resolver<CommittingCartMutation, I, O>) {
  return writeProcedure(requireCartMutation(meta), schemas, { mode: "commit" }, resolve);
}
