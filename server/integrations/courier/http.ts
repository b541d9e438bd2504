import { z } from "zod";
import { currencies, type Currency } from "../../domain/money";
import { dependencyUnavailable } from "../../errors";
import { COURIER_QUOTE_TTL_MS, type Courier, type CourierAcceptResult, type CourierQuoteResult, type CourierRejection } from "./types";

export type HttpCourierOptions = {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  fetch?: typeof fetch;
};

const isoDate = z.string().refine((value) => !Number.isNaN(Date.parse(value)));

/** The members of a DoorDash-Drive-style quote we rely on; anything else is ignored. */
const quoteResponseSchema = z.object({
  external_delivery_id: z.string().min(1),
  fee: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  tax: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  currency: z.string(),
  expires_at: isoDate.optional(),
  pickup_time_estimated: isoDate.optional(),
  dropoff_time_estimated: isoDate.optional(),
  tracking_url: z.url().optional(),
  support_reference: z.string().min(1).optional(),
});

const acceptResponseSchema = z.object({
  external_delivery_id: z.string().min(1),
  delivery_status: z.string().min(1),
  tracking_url: z.url().optional(),
  support_reference: z.string().min(1).optional(),
});

const errorBodySchema = z.object({
  code: z.string().optional(),
  message: z.string().optional(),
  field_errors: z.array(z.object({ field: z.string(), error: z.string() })).optional(),
});

/**
 * HTTP client for a DoorDash-Drive-style API: `POST /drive/v2/quotes` creates a quote and
 * `POST /drive/v2/quotes/{external_delivery_id}/accept` accepts it with the tip. Money is integer
 * minor units both ways. Every call is bounded by `timeoutMs` (connect, headers and body): a slow or
 * unreachable courier becomes 503 DEPENDENCY_UNAVAILABLE, never a hung request.
 */
export function createHttpCourier(options: HttpCourierOptions): Courier {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, "");

  async function post(path: string, body: unknown): Promise<{ status: number; json: unknown }> {
    try {
      const response = await doFetch(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${options.apiKey}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const text = await response.text();
      let json: unknown = undefined;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      return { status: response.status, json };
    } catch (error) {
      // Timeouts, refused connections and resets alike: the courier could not answer in time.
      throw dependencyUnavailable("The courier", error);
    }
  }

  /** 400/422 are the courier's "no" to this request; anything else non-2xx is the courier failing. */
  function rejectionOrFailure(status: number, json: unknown, fallback: string): { ok: false; rejection: CourierRejection } {
    if (status !== 400 && status !== 422) throw dependencyUnavailable("The courier", new Error(`courier answered HTTP ${status}`));
    const parsed = errorBodySchema.safeParse(json);
    const body = parsed.success ? parsed.data : {};
    return {
      ok: false,
      rejection: {
        reason: body.code ?? "REJECTED",
        message: body.message ?? fallback,
        ...(body.field_errors ? { details: { fieldErrors: body.field_errors } } : {}),
      },
    };
  }

  return {
    name: "http",
    async quote(request): Promise<CourierQuoteResult> {
      const { status, json } = await post("/drive/v2/quotes", {
        external_delivery_id: request.externalDeliveryId,
        pickup_business_name: request.pickup.businessName,
        pickup_address: request.pickup.address,
        pickup_phone_number: request.pickup.phone,
        pickup_location: { lat: request.pickup.lat, lng: request.pickup.lng },
        dropoff_address: request.dropoff.address,
        dropoff_location: { lat: request.dropoff.lat, lng: request.dropoff.lng },
        order_value: request.orderValueMinor,
        currency: request.currency.toUpperCase(),
        pickup_time: request.pickupTime.toISOString(),
        tip: request.tipMinor,
      });
      if (status < 200 || status >= 300) return rejectionOrFailure(status, json, "The courier cannot deliver to this address");
      const parsed = quoteResponseSchema.safeParse(json);
      if (!parsed.success) throw dependencyUnavailable("The courier", new Error(`malformed quote: ${parsed.error.message}`));
      const quote = parsed.data;
      const currency = quote.currency.toLowerCase() as Currency;
      if (quote.external_delivery_id !== request.externalDeliveryId || currency !== request.currency || !currencies.includes(currency)) {
        throw dependencyUnavailable("The courier", new Error("quote does not match the request (id or currency)"));
      }
      const date = (value: string | undefined) => (value === undefined ? undefined : new Date(value));
      return {
        ok: true,
        quote: {
          externalDeliveryId: quote.external_delivery_id,
          feeMinor: quote.fee,
          taxMinor: quote.tax ?? 0,
          currency,
          quotedAt: request.now,
          expiresAt: date(quote.expires_at) ?? new Date(request.now.getTime() + COURIER_QUOTE_TTL_MS),
          ...(quote.pickup_time_estimated ? { pickupEstimatedAt: new Date(quote.pickup_time_estimated) } : {}),
          ...(quote.dropoff_time_estimated ? { dropoffEstimatedAt: new Date(quote.dropoff_time_estimated) } : {}),
          ...(quote.tracking_url ? { trackingUrl: quote.tracking_url } : {}),
          ...(quote.support_reference ? { supportReference: quote.support_reference } : {}),
        },
      };
    },
    async acceptQuote(request): Promise<CourierAcceptResult> {
      const { status, json } = await post(`/drive/v2/quotes/${encodeURIComponent(request.externalDeliveryId)}/accept`, { tip: request.tipMinor });
      if (status < 200 || status >= 300) return rejectionOrFailure(status, json, "The courier refused the quote (expired or unknown)");
      const parsed = acceptResponseSchema.safeParse(json);
      if (!parsed.success) throw dependencyUnavailable("The courier", new Error(`malformed accept response: ${parsed.error.message}`));
      const accepted = parsed.data;
      return {
        ok: true,
        externalDeliveryId: accepted.external_delivery_id,
        status: accepted.delivery_status,
        ...(accepted.tracking_url ? { trackingUrl: accepted.tracking_url } : {}),
        ...(accepted.support_reference ? { supportReference: accepted.support_reference } : {}),
      };
    },
  };
}
