import type { Env } from "../../env";
import { createHttpCourier } from "./http";
import { createSimulatedCourier } from "./simulated";
import type { Courier } from "./types";

export type { Courier, CourierQuote, CourierQuoteRequest, CourierQuoteResult, CourierAcceptRequest, CourierAcceptResult } from "./types";

/** The HTTP courier when COURIER_API_URL and COURIER_API_KEY are set, else the embedded simulation. */
export function createCourier(env: Env): Courier {
  if (env.COURIER_API_URL && env.COURIER_API_KEY) {
    return createHttpCourier({ baseUrl: env.COURIER_API_URL, apiKey: env.COURIER_API_KEY, timeoutMs: env.COURIER_TIMEOUT_MS });
  }
  return createSimulatedCourier({ maxRadiusKm: env.COURIER_MAX_RADIUS_KM });
}
