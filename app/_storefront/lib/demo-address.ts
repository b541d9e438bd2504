import type { DeliveryAddressInput, DeliveryCountry, Location } from "./types";

/** The countries a delivery address may name (the DeliveryAddress schema's list). */
export const deliveryCountries = ["United States", "United Kingdom", "Australia", "United Arab Emirates"] as const satisfies readonly DeliveryCountry[];

export function isDeliveryCountry(value: string): value is DeliveryCountry {
  return (deliveryCountries as readonly string[]).includes(value);
}

/**
 * There is no geocoder in this demo, and the courier prices the distance from lat/lng. So the
 * storefront offers a real address near each demo restaurant, with its real coordinates; any
 * other location gets a point a few hundred metres north of the restaurant.
 */
const nearby: Record<string, Omit<DeliveryAddressInput, "country">> = {
  loc_harbor_kitchen_downtown: { street: "1 Faneuil Hall Square", streetOptional: "", city: "Boston", state: "MA", zipCode: "02109", lat: 42.36, lng: -71.0548 },
  loc_dune_grill_marina: { street: "Marina Walk, Dubai Marina", streetOptional: "", city: "Dubai", state: "Dubai", zipCode: "00000", lat: 25.0805, lng: 55.1396 },
};

/** About 330 m of latitude. */
const FALLBACK_OFFSET_DEGREES = 0.003;

export function demoAddressNear(location: Pick<Location, "id" | "address" | "coordinates">): DeliveryAddressInput | null {
  const country = location.address.country;
  if (!isDeliveryCountry(country)) return null;
  const known = nearby[location.id];
  if (known) return { ...known, country };
  return {
    street: `Near ${location.address.street}`,
    streetOptional: "",
    city: location.address.city,
    state: location.address.state,
    zipCode: location.address.zipCode,
    country,
    lat: Number((location.coordinates.lat + FALLBACK_OFFSET_DEGREES).toFixed(6)),
    lng: location.coordinates.lng,
  };
}
