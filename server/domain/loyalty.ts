import { minorDigits, type Currency, type Minor } from "./money";

/**
 * The loyalty rule: `pointsPerUnit` points per whole currency unit of the order's subTotal (after
 * discount, before tax, fees and tips), rounded down. 0 for a merchant without a programme.
 */
export function pointsForOrder(subTotalMinor: Minor, currency: Currency, pointsPerUnit: number): number {
  if (subTotalMinor <= 0 || pointsPerUnit <= 0) return 0;
  const wholeUnits = Math.floor(subTotalMinor / 10 ** minorDigits(currency));
  return wholeUnits * pointsPerUnit;
}
