import type { Currency, Minor } from "../../domain/money";

/**
 * A third-party courier (the spec's PARTNER_DRIVE), in the quote-then-accept style of DoorDash
 * Drive: a quote prices one delivery and is valid for a few minutes; accepting it (at checkout,
 * with the courier tip) dispatches the delivery.
 *
 * A courier that answers "no" (address out of range, undeliverable) returns `ok: false`; one that
 * is down, slow or answers nonsense throws AppError DEPENDENCY_UNAVAILABLE, so callers never wait
 * longer than the configured timeout.
 */
export type CourierQuoteRequest = {
  /** Our id for this delivery attempt; the courier echoes it and it names the quote when accepting. */
  externalDeliveryId: string;
  pickup: { businessName: string; address: string; phone: string; lat: number; lng: number };
  dropoff: { address: string; lat: number; lng: number };
  orderValueMinor: Minor;
  currency: Currency;
  /** When the order will be ready to leave the kitchen. */
  pickupTime: Date;
  tipMinor: Minor;
  /** The service's clock: quotes are dated with it. */
  now: Date;
};

export type CourierQuote = {
  externalDeliveryId: string;
  feeMinor: Minor;
  taxMinor: Minor;
  currency: Currency;
  quotedAt: Date;
  expiresAt: Date;
  pickupEstimatedAt?: Date;
  dropoffEstimatedAt?: Date;
  trackingUrl?: string;
  supportReference?: string;
};

export type CourierRejection = { reason: string; message: string; details?: Record<string, unknown> };

export type CourierQuoteResult = { ok: true; quote: CourierQuote } | { ok: false; rejection: CourierRejection };

export type CourierAcceptRequest = { externalDeliveryId: string; tipMinor: Minor };

export type CourierAcceptResult =
  | { ok: true; externalDeliveryId: string; status: string; trackingUrl?: string; supportReference?: string }
  | { ok: false; rejection: CourierRejection };

export interface Courier {
  readonly name: "simulated" | "http";
  quote(request: CourierQuoteRequest): Promise<CourierQuoteResult>;
  acceptQuote(request: CourierAcceptRequest): Promise<CourierAcceptResult>;
}

/** Courier quotes are good for five minutes (DoorDash Drive's documented validity). */
export const COURIER_QUOTE_TTL_MS = 5 * 60_000;
