import { describe, expect, it } from "vitest";
import { createSimulatedCourier, SIMULATED_BASE_FEE_MINOR, SIMULATED_FEE_PER_KM_MINOR } from "./simulated";
import type { CourierQuoteRequest } from "./types";

const now = new Date("2030-03-04T15:00:00.000Z");
const harbor = { businessName: "Harbor Kitchen Downtown", address: "200 Atlantic Avenue, Boston", phone: "+1 617-555-0142", lat: 42.3597, lng: -71.0509 };

function request(dropoff: { lat: number; lng: number }): CourierQuoteRequest {
  return {
    externalDeliveryId: "dlv_test",
    pickup: harbor,
    dropoff: { address: "somewhere", ...dropoff },
    orderValueMinor: 4200,
    currency: "usd",
    pickupTime: new Date(now.getTime() + 45 * 60_000),
    tipMinor: 0,
    now,
  };
}

describe("simulated courier", () => {
  const courier = createSimulatedCourier({ maxRadiusKm: 8 });

  it("prices by started kilometre, deterministically, valid for five minutes", async () => {
    // 4.07 km (Fenway): 5 started kilometres.
    const first = await courier.quote(request({ lat: 42.3467, lng: -71.0972 }));
    const second = await courier.quote(request({ lat: 42.3467, lng: -71.0972 }));
    expect(first).toEqual(second);
    if (!first.ok) throw new Error("expected a quote");
    expect(first.quote).toMatchObject({ externalDeliveryId: "dlv_test", feeMinor: SIMULATED_BASE_FEE_MINOR + 5 * SIMULATED_FEE_PER_KM_MINOR, taxMinor: 0, currency: "usd" });
    expect(first.quote.expiresAt.getTime() - now.getTime()).toBe(5 * 60_000);
    expect(first.quote.pickupEstimatedAt?.getTime()).toBe(now.getTime() + 45 * 60_000);
    expect(first.quote.dropoffEstimatedAt?.getTime()).toBeGreaterThan(first.quote.pickupEstimatedAt?.getTime() ?? Infinity);
  });

  it("charges at least one kilometre next door", async () => {
    const result = await courier.quote(request({ lat: 42.3597, lng: -71.0509 }));
    expect(result.ok && result.quote.feeMinor).toBe(SIMULATED_BASE_FEE_MINOR + SIMULATED_FEE_PER_KM_MINOR);
  });

  it("refuses addresses beyond its radius, saying how far", async () => {
    const result = await courier.quote(request({ lat: 42.2529, lng: -71.0023 }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.rejection.reason).toBe("OUT_OF_DELIVERY_RADIUS");
    expect(result.rejection.details).toMatchObject({ maxRadiusKm: 8 });
    expect(Number(result.rejection.details?.distanceKm)).toBeGreaterThan(12);
  });

  it("takes a configured radius", async () => {
    const wide = createSimulatedCourier({ maxRadiusKm: 20 });
    expect((await wide.quote(request({ lat: 42.2529, lng: -71.0023 }))).ok).toBe(true);
  });
});
