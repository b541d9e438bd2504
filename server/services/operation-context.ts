import type { Tx } from "../../db/client";
import type { RequestContext } from "../app/request-context";

/**
 * What a write's use case gets from its operation's kind (server/trpc/procedures.ts), besides the
 * request: the rules of the kind are already applied, so a service never reads a header.
 *
 * - `expectedRevision`: the cart revision of a valid If-Match (cart mutations only).
 * - A write whose work is one transaction runs inside the transaction its kind opened, which also
 *   holds the Idempotency-Key and stores the answer: `tx`.
 * - A write that must call an outside service first (card processor, courier, SMS) gets `commit`
 *   instead: the kind has already replayed a stored answer if there was one; the use case calls
 *   `commit` once, after the outside call, with its final transaction, which the kind runs under the
 *   key and stores the answer of.
 */
export type WriteContext = RequestContext & { expectedRevision: number | undefined };

export type TransactionalWrite = WriteContext & { tx: Tx };

export type Commit = <T>(execute: (tx: Tx) => Promise<T>) => Promise<T>;

export type CommittingWrite = WriteContext & { commit: Commit };

/** A cart mutation's context: If-Match is required by its kind, so the revision is always there. */
export type CartMutationContext = TransactionalWrite & { expectedRevision: number };

export type CommittingCartMutation = CommittingWrite & { expectedRevision: number };
