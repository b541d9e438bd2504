import { isDeliveryCountry } from "./demo-address";
import type { DeliveryAddressInput } from "./types";

/** The delivery address form's fields as typed, and the checks the server will make again. */
export type AddressField = "street" | "streetOptional" | "city" | "state" | "zipCode" | "country" | "lat" | "lng";
export type AddressFields = Record<AddressField, string>;

export const addressLimits: Record<AddressField, number> = { street: 200, streetOptional: 200, city: 100, state: 100, zipCode: 20, country: 64, lat: 24, lng: 24 };

export function fieldsOf(address: DeliveryAddressInput | null, country: string): AddressFields {
  return {
    street: address?.street ?? "",
    streetOptional: address?.streetOptional ?? "",
    city: address?.city ?? "",
    state: address?.state ?? "",
    zipCode: address?.zipCode ?? "",
    country: address?.country ?? country,
    lat: address ? String(address.lat) : "",
    lng: address ? String(address.lng) : "",
  };
}

/** Client-side checks that match the server's (it checks again): required fields, coordinates in range. */
export function checkAddress(fields: AddressFields): { address: DeliveryAddressInput } | { problems: Partial<Record<AddressField, string>> } {
  const problems: Partial<Record<AddressField, string>> = {};
  for (const name of ["street", "city", "state", "zipCode"] as const) if (!fields[name].trim()) problems[name] = "Required.";
  const coordinate = (name: "lat" | "lng", max: number) => {
    const text = fields[name].trim();
    const value = Number(text);
    if (!text || !Number.isFinite(value) || Math.abs(value) > max) problems[name] = `Enter a number between -${max} and ${max}.`;
    return value;
  };
  const lat = coordinate("lat", 90);
  const lng = coordinate("lng", 180);
  if (!isDeliveryCountry(fields.country)) problems.country = "Choose a country.";
  if (Object.keys(problems).length > 0 || !isDeliveryCountry(fields.country)) return { problems };
  return {
    address: {
      street: fields.street.trim(),
      streetOptional: fields.streetOptional.trim(),
      city: fields.city.trim(),
      state: fields.state.trim(),
      zipCode: fields.zipCode.trim(),
      country: fields.country,
      lat,
      lng,
    },
  };
}

