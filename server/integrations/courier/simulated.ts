import { haversineKm } from "../../domain/delivery";
import { COURIER_QUOTE_TTL_MS, type Courier, type CourierQuoteResult } from "./types";

export type SimulatedCourierOptions = { maxRadiusKm: number };

/** Fee of the embedded courier: a base plus a rate per started kilometre, in the cart's minor units. */
export const SIMULATED_BASE_FEE_MINOR = 299;
export const SIMULATED_FEE_PER_KM_MINOR = 60;
/** Minutes a courier needs per kilometre (24 km/h through a city), plus a fixed hand-over. */
const MINUTES_PER_KM = 2.5;
const HANDOVER_MINUTES = 5;

/**
 * The embedded default: no network, deterministic (same request, same quote), so a fresh clone
 * can take delivery orders and tests can predict fees. Distance is the great-circle distance
 * from the restaurant; beyond `maxRadiusKm` it refuses the address as a real courier would.
 */
export function createSimulatedCourier(options: SimulatedCourierOptions): Courier {
  return {
    name: "simulated",
    quote(request): Promise<CourierQuoteResult> {
      const distanceKm = haversineKm(request.pickup, request.dropoff);
      if (distanceKm > options.maxRadiusKm) {
        return Promise.resolve({
          ok: false,
          rejection: {
            reason: "OUT_OF_DELIVERY_RADIUS",
            message: `The address is ${distanceKm.toFixed(1)} km away; deliveries reach ${options.maxRadiusKm} km`,
            details: { distanceKm: Number(distanceKm.toFixed(2)), maxRadiusKm: options.maxRadiusKm },
          },
        });
      }
      const startedKm = Math.max(1, Math.ceil(distanceKm));
      const travelMinutes = Math.ceil(distanceKm * MINUTES_PER_KM) + HANDOVER_MINUTES;
      return Promise.resolve({
        ok: true,
        quote: {
          externalDeliveryId: request.externalDeliveryId,
          feeMinor: SIMULATED_BASE_FEE_MINOR + SIMULATED_FEE_PER_KM_MINOR * startedKm,
          taxMinor: 0,
          currency: request.currency,
          quotedAt: request.now,
          expiresAt: new Date(request.now.getTime() + COURIER_QUOTE_TTL_MS),
          pickupEstimatedAt: request.pickupTime,
          dropoffEstimatedAt: new Date(request.pickupTime.getTime() + travelMinutes * 60_000),
        },
      });
    },
    acceptQuote(request) {
      return Promise.resolve({ ok: true, externalDeliveryId: request.externalDeliveryId, status: "created" });
    },
  };
}
