/** Shapes of the catalog's JSON columns. Money is integer minor units; rates are decimal strings. */

export const fulfilmentMethods = ["takeout", "table_side", "room_service", "delivery"] as const;
export type FulfilmentMethod = (typeof fulfilmentMethods)[number];

/** "HH:MM" 24-hour local time; "24:00" closes at midnight. */
export type LocalTime = string;
export type OpeningWindow = { opens: LocalTime; closes: LocalTime };
/** ISO weekday ("1" = Monday .. "7" = Sunday) to the day's opening windows; a missing day is closed. */
export type WeeklyHours = Partial<Record<"1" | "2" | "3" | "4" | "5" | "6" | "7", OpeningWindow[]>>;

export type MenuAvailability = { days: number[]; opens: LocalTime; closes: LocalTime }[];

export type FulfilmentOption = {
  enabled: boolean;
  feeFixMinor: number;
  feeRate: string;
  /** Minimum minutes between ordering and the earliest slot. */
  leadMinutes: number;
  /** Slot spacing for scheduled orders. */
  slotMinutes: number;
};
export type FulfilmentPolicy = Partial<Record<FulfilmentMethod, FulfilmentOption>>;

export type FeePolicy = {
  taxRate: string;
  serviceFeeRate: string;
  serviceFeeFixMinor: number;
  enterpriseFeeRate: string;
  enterpriseFeeFixMinor: number;
  paymentProcessingFeeRate: string;
  paymentProcessingFeeFixMinor: number;
};

export type GratuityPolicy = {
  presets: string[];
  defaultRate: string | null;
  allowCustomAmount: boolean;
  maxRate: string;
};

export type ModifierOption = { id: string; name: string; priceMinor: number; available: boolean };
export type ModifierGroup = {
  id: string;
  name: string;
  minSelections: number;
  maxSelections: number;
  /** Largest quantity of a single option within the group. */
  maxPerOption: number;
  options: ModifierOption[];
};
