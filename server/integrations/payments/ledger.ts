import { createHash, randomBytes } from "node:crypto";
import { canonicalJson } from "../../domain/fingerprint";
import { isErrorKind, markErrorKind } from "../../error-kind";

/**
 * An in-memory model of Stripe's PaymentIntents: the statuses and transitions, Stripe's test
 * payment methods, and idempotency keys (same key and same request: the original response again;
 * same key, different request: an error). It backs the simulated processor (the embedded default)
 * and the local HTTP fake the Stripe implementation is tested against, so both answer alike.
 */
export type LedgerCard = { brand: string; last4: string; exp_month: number; exp_year: number };

export type LedgerIntent = {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_capturable: number;
  amount_received: number;
  currency: string;
  status: "requires_payment_method" | "requires_confirmation" | "requires_action" | "processing" | "requires_capture" | "canceled" | "succeeded";
  capture_method: "automatic" | "manual";
  client_secret: string;
  description: string | null;
  metadata: Record<string, string>;
  /** The processor customer the intent is for; with setup_future_usage its card is saved to that customer. */
  customer: string | null;
  setup_future_usage: "on_session" | "off_session" | null;
  payment_method: { id: string; object: "payment_method"; type: "card"; card: LedgerCard } | null;
  last_payment_error: { type: string; code: string; decline_code?: string; message: string } | null;
  created: number;
  livemode: false;
};

export type LedgerErrorBody = {
  type: "invalid_request_error" | "card_error" | "idempotency_error";
  code?: string;
  decline_code?: string;
  param?: string;
  message: string;
  payment_intent?: LedgerIntent;
};

export type LedgerCustomer = { id: string; object: "customer"; email: string | null; metadata: Record<string, string>; created: number };

/** A card saved for reuse: attached to a customer until detached. */
export type LedgerPaymentMethod = { id: string; object: "payment_method"; type: "card"; card: LedgerCard; customer: string | null; created: number };

export const isLedgerError = (value: unknown): value is LedgerError => isErrorKind<LedgerError>(value, "LedgerError");

export class LedgerError extends Error {
  readonly status: number;
  readonly body: LedgerErrorBody;

  constructor(status: number, body: LedgerErrorBody) {
    super(body.message);
    this.name = "LedgerError";
    markErrorKind(this, "LedgerError");
    this.status = status;
    this.body = body;
  }
}

type TestMethod = { card: LedgerCard } & ({ outcome: "authorized" } | { outcome: "declined"; declineCode: string } | { outcome: "authentication_required" });

/** Stripe's test cards take any future expiry; this one is fixed so saved cards read the same everywhere. */
const TEST_CARD_EXP_YEAR = 2034;

/** Stripe's test payment methods (https://docs.stripe.com/testing), the ones this service documents. */
export const TEST_PAYMENT_METHODS: Record<string, TestMethod> = {
  pm_card_visa: { card: { brand: "visa", last4: "4242", exp_month: 12, exp_year: TEST_CARD_EXP_YEAR }, outcome: "authorized" },
  pm_card_mastercard: { card: { brand: "mastercard", last4: "4444", exp_month: 12, exp_year: TEST_CARD_EXP_YEAR }, outcome: "authorized" },
  pm_card_amex: { card: { brand: "amex", last4: "8431", exp_month: 12, exp_year: TEST_CARD_EXP_YEAR }, outcome: "authorized" },
  pm_card_chargeDeclined: { card: { brand: "visa", last4: "0002", exp_month: 12, exp_year: TEST_CARD_EXP_YEAR }, outcome: "declined", declineCode: "generic_decline" },
  pm_card_chargeDeclinedInsufficientFunds: { card: { brand: "visa", last4: "9995", exp_month: 12, exp_year: TEST_CARD_EXP_YEAR }, outcome: "declined", declineCode: "insufficient_funds" },
  pm_card_authenticationRequired: { card: { brand: "visa", last4: "3184", exp_month: 12, exp_year: TEST_CARD_EXP_YEAR }, outcome: "authentication_required" },
};

const AMENDABLE = new Set<LedgerIntent["status"]>(["requires_payment_method", "requires_confirmation", "requires_action"]);
const CANCELABLE = new Set<LedgerIntent["status"]>(["requires_payment_method", "requires_confirmation", "requires_action", "requires_capture", "processing"]);

export type CreateParams = {
  amount: number;
  currency: string;
  metadata?: Record<string, string>;
  description?: string;
  capture_method?: "automatic" | "manual";
  customer?: string;
  setup_future_usage?: "on_session" | "off_session";
};
export type UpdateParams = { amount?: number; currency?: string; metadata?: Record<string, string>; description?: string };

type Outcome = { ok: true; value: unknown } | { ok: false; error: LedgerError };

export class PaymentIntentLedger {
  private readonly intents = new Map<string, LedgerIntent>();
  private readonly customers = new Map<string, LedgerCustomer>();
  private readonly paymentMethods = new Map<string, LedgerPaymentMethod>();
  private readonly replies = new Map<string, { request: string; outcome: Outcome }>();
  /** Money actually moved: captures (and automatic-capture confirmations), per intent. */
  readonly charges: { intentId: string; amount: number; currency: string }[] = [];

  constructor(private readonly clock: () => Date = () => new Date()) {}

  get intentCount(): number {
    return this.intents.size;
  }

  allIntents(): LedgerIntent[] {
    return [...this.intents.values()].map((intent) => structuredClone(intent));
  }

  create(params: CreateParams, idempotencyKey: string | undefined): LedgerIntent {
    return this.idempotent(idempotencyKey, { op: "create", params }, () => {
      if (!Number.isSafeInteger(params.amount) || params.amount < 1) throw invalid("amount", "Amount must be a positive integer in the smallest currency unit.");
      if (params.customer !== undefined && !this.customers.has(params.customer)) throw invalid("customer", `No such customer: '${params.customer}'`, "resource_missing");
      if (params.setup_future_usage !== undefined && params.customer === undefined) throw invalid("setup_future_usage", "setup_future_usage requires a customer.");
      const id = `pi_${randomBytes(12).toString("hex")}`;
      const intent: LedgerIntent = {
        id,
        object: "payment_intent",
        amount: params.amount,
        amount_capturable: 0,
        amount_received: 0,
        currency: params.currency.toLowerCase(),
        status: "requires_payment_method",
        capture_method: params.capture_method ?? "automatic",
        client_secret: `${id}_secret_${randomBytes(12).toString("hex")}`,
        description: params.description ?? null,
        metadata: { ...params.metadata },
        customer: params.customer ?? null,
        setup_future_usage: params.setup_future_usage ?? null,
        payment_method: null,
        last_payment_error: null,
        created: Math.floor(this.clock().getTime() / 1000),
        livemode: false,
      };
      this.intents.set(id, intent);
      return intent;
    });
  }

  update(id: string, params: UpdateParams, idempotencyKey: string | undefined): LedgerIntent {
    return this.idempotent(idempotencyKey, { op: "update", id, params }, () => {
      const intent = this.find(id);
      if (!AMENDABLE.has(intent.status)) throw unexpectedState(intent, "update");
      if (params.amount !== undefined) intent.amount = params.amount;
      if (params.currency !== undefined) intent.currency = params.currency.toLowerCase();
      if (params.description !== undefined) intent.description = params.description;
      for (const [key, value] of Object.entries(params.metadata ?? {})) {
        // Stripe's rule: metadata is merged, and an empty value removes the key.
        if (value === "") delete intent.metadata[key];
        else intent.metadata[key] = value;
      }
      return intent;
    });
  }

  retrieve(id: string): LedgerIntent {
    return structuredClone(this.find(id));
  }

  confirm(id: string, paymentMethod: string | undefined, idempotencyKey: string | undefined): LedgerIntent {
    return this.idempotent(idempotencyKey, { op: "confirm", id, paymentMethod }, () => {
      const intent = this.find(id);
      if (!AMENDABLE.has(intent.status)) throw unexpectedState(intent, "confirm");
      const method = paymentMethod === undefined ? undefined : TEST_PAYMENT_METHODS[paymentMethod];
      if (!method || paymentMethod === undefined) {
        throw invalid("payment_method", paymentMethod === undefined ? "A payment method is required to confirm this PaymentIntent." : `No such PaymentMethod: '${paymentMethod}'`, "resource_missing", 400);
      }
      intent.last_payment_error = null;
      if (method.outcome === "declined") {
        intent.status = "requires_payment_method";
        intent.payment_method = null;
        intent.last_payment_error = { type: "card_error", code: "card_declined", decline_code: method.declineCode, message: "Your card was declined." };
        throw new LedgerError(402, {
          type: "card_error",
          code: "card_declined",
          decline_code: method.declineCode,
          message: "Your card was declined.",
          payment_intent: structuredClone(intent),
        });
      }
      intent.payment_method = { id: `${paymentMethod}_${intent.id.slice(3, 11)}`, object: "payment_method", type: "card", card: { ...method.card } };
      if (method.outcome === "authentication_required") {
        intent.status = "requires_action";
        return intent;
      }
      if (intent.capture_method === "manual") {
        intent.status = "requires_capture";
        intent.amount_capturable = intent.amount;
      } else {
        this.settleCharge(intent);
      }
      // Like Stripe: an authorized card of an intent for a customer, meant for future use, is saved to that customer.
      if (intent.customer && intent.setup_future_usage) {
        this.paymentMethods.set(intent.payment_method.id, { ...intent.payment_method, card: { ...method.card }, customer: intent.customer, created: Math.floor(this.clock().getTime() / 1000) });
      }
      return intent;
    });
  }

  capture(id: string, idempotencyKey: string | undefined): LedgerIntent {
    return this.idempotent(idempotencyKey, { op: "capture", id }, () => {
      const intent = this.find(id);
      if (intent.status !== "requires_capture") throw unexpectedState(intent, "capture");
      this.settleCharge(intent);
      return intent;
    });
  }

  cancel(id: string, idempotencyKey: string | undefined): LedgerIntent {
    return this.idempotent(idempotencyKey, { op: "cancel", id }, () => {
      const intent = this.find(id);
      if (!CANCELABLE.has(intent.status)) throw unexpectedState(intent, "cancel");
      intent.status = "canceled";
      intent.amount_capturable = 0;
      return intent;
    });
  }

  createCustomer(params: { email?: string; metadata?: Record<string, string> }, idempotencyKey: string | undefined): LedgerCustomer {
    return this.idempotent(idempotencyKey, { op: "createCustomer", params }, () => {
      const customer: LedgerCustomer = {
        id: `cus_${randomBytes(7).toString("hex")}`,
        object: "customer",
        email: params.email ?? null,
        metadata: { ...params.metadata },
        created: Math.floor(this.clock().getTime() / 1000),
      };
      this.customers.set(customer.id, customer);
      return customer;
    });
  }

  /** The customer with this id, created if missing (the simulated processor's stable ids survive a restart this way). */
  upsertCustomer(id: string): LedgerCustomer {
    let customer = this.customers.get(id);
    if (!customer) {
      customer = { id, object: "customer", email: null, metadata: {}, created: Math.floor(this.clock().getTime() / 1000) };
      this.customers.set(id, customer);
    }
    return structuredClone(customer);
  }

  /** The customer's saved cards, newest first. */
  listPaymentMethods(customer: string): LedgerPaymentMethod[] {
    if (!this.customers.has(customer)) throw invalid("customer", `No such customer: '${customer}'`, "resource_missing");
    return [...this.paymentMethods.values()]
      .filter((method) => method.customer === customer)
      .sort((a, b) => b.created - a.created)
      .map((method) => structuredClone(method));
  }

  paymentMethodOrNull(id: string): LedgerPaymentMethod | null {
    const method = this.paymentMethods.get(id);
    return method ? structuredClone(method) : null;
  }

  retrievePaymentMethod(id: string): LedgerPaymentMethod {
    const method = this.paymentMethods.get(id);
    if (!method) throw new LedgerError(404, { type: "invalid_request_error", code: "resource_missing", param: "payment_method", message: `No such PaymentMethod: '${id}'` });
    return structuredClone(method);
  }

  detachPaymentMethod(id: string): LedgerPaymentMethod {
    const method = this.paymentMethods.get(id);
    if (!method) throw new LedgerError(404, { type: "invalid_request_error", code: "resource_missing", param: "payment_method", message: `No such PaymentMethod: '${id}'` });
    if (method.customer === null) {
      throw invalid("payment_method", "The payment method you provided is not attached to a customer so detachment is impossible.", "payment_method_unexpected_state");
    }
    method.customer = null;
    return structuredClone(method);
  }

  private settleCharge(intent: LedgerIntent): void {
    intent.status = "succeeded";
    intent.amount_received = intent.amount;
    intent.amount_capturable = 0;
    this.charges.push({ intentId: intent.id, amount: intent.amount, currency: intent.currency });
  }

  private find(id: string): LedgerIntent {
    const intent = this.intents.get(id);
    if (!intent) throw new LedgerError(404, { type: "invalid_request_error", code: "resource_missing", param: "intent", message: `No such payment_intent: '${id}'` });
    return intent;
  }

  /**
   * Stripe's idempotency: the first result under a key (success or card decline) is stored and
   * replayed to every retry of the same request; a different request under the key is refused.
   */
  private idempotent<T>(key: string | undefined, request: unknown, run: () => T): T {
    const signature = createHash("sha256").update(canonicalJson(request)).digest("hex");
    if (key !== undefined) {
      const stored = this.replies.get(key);
      if (stored) {
        if (stored.request !== signature) {
          throw new LedgerError(400, {
            type: "idempotency_error",
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          });
        }
        if (!stored.outcome.ok) throw stored.outcome.error;
        return structuredClone(stored.outcome.value as T);
      }
    }
    let outcome: Outcome;
    try {
      outcome = { ok: true, value: structuredClone(run()) };
    } catch (error) {
      // Like Stripe, a request refused before it ran (validation, state) stores nothing; a decline is a result.
      if (!isLedgerError(error) || error.status !== 402) throw error;
      outcome = { ok: false, error };
    }
    if (key !== undefined) this.replies.set(key, { request: signature, outcome });
    if (!outcome.ok) throw outcome.error;
    return structuredClone(outcome.value as T);
  }
}

function invalid(param: string, message: string, code = "parameter_invalid", status = 400): LedgerError {
  return new LedgerError(status, { type: "invalid_request_error", code, param, message });
}

function unexpectedState(intent: LedgerIntent, action: string): LedgerError {
  return new LedgerError(400, {
    type: "invalid_request_error",
    code: "payment_intent_unexpected_state",
    message: `You cannot ${action} this PaymentIntent because it has a status of ${intent.status}.`,
    payment_intent: structuredClone(intent),
  });
}
