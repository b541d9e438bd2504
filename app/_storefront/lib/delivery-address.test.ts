import { describe, expect, it } from "vitest";
import { checkAddress, fieldsOf } from "./delivery-address";
import { demoAddressNear } from "./demo-address";
import type { Location } from "./types";

const harbor = { id: "loc_harbor_kitchen_downtown", address: { street: "200 Atlantic Avenue", city: "Boston", state: "MA", zipCode: "02110", country: "United States" }, coordinates: { lat: 42.3597, lng: -71.0509 } } as Location;

/** Great-circle distance, to check the demo address is inside the courier's default 8 km. */
function km(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = (degrees: number) => (degrees * Math.PI) / 180;
  const h = Math.sin(rad(b.lat - a.lat) / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

describe("delivery address", () => {
  it("offers a real address near each demo restaurant, and a nearby point elsewhere", () => {
    const near = demoAddressNear(harbor);
    expect(near).toMatchObject({ street: "1 Faneuil Hall Square", city: "Boston", country: "United States" });
    expect(km(harbor.coordinates, near ?? { lat: 0, lng: 0 })).toBeLessThan(1);

    const elsewhere = demoAddressNear({ ...harbor, id: "loc_other" });
    expect(elsewhere).toMatchObject({ street: "Near 200 Atlantic Avenue", city: "Boston", zipCode: "02110" });
    expect(km(harbor.coordinates, elsewhere ?? { lat: 0, lng: 0 })).toBeLessThan(1);

    expect(demoAddressNear({ ...harbor, address: { ...harbor.address, country: "Canada" } })).toBeNull();
  });

  it("turns the typed fields into the address the API takes, or says what is missing", () => {
    const demo = demoAddressNear(harbor);
    if (!demo) throw new Error("no demo address");
    expect(checkAddress(fieldsOf(demo, "United States"))).toEqual({ address: demo });
    expect(checkAddress({ ...fieldsOf(demo, "United States"), street: "  ", lat: "91", lng: "east", country: "Canada" })).toEqual({
      problems: { street: "Required.", lat: "Enter a number between -90 and 90.", lng: "Enter a number between -180 and 180.", country: "Choose a country." },
    });
    const padded = checkAddress({ ...fieldsOf(demo, "United States"), city: "  Boston ", lat: " 42.36 " });
    expect(padded).toMatchObject({ address: { city: "Boston", lat: 42.36 } });
  });
});
