import type { CartLine, GratuityChoice } from "../server/domain/cart-types";
import { parseDecimalToMinor } from "../server/domain/money";
import type { TestApp } from "./harness";

/**
 * An independent model of a cart for the property tests: what the lines, discount, gratuity and
 * order time must be after a sequence of successful commands, built from the catalog the API
 * publishes (not from the server's stored lines).
 */

export type CatalogOption = { id: string; priceMinor: number; available: boolean };
export type CatalogGroup = { id: string; minSelections: number; maxSelections: number; maxPerOption: number; options: CatalogOption[] };
export type CatalogProduct = { id: string; priceMinor: number; groups: CatalogGroup[] };

type ProductBody = {
  id: string;
  price: string;
  available: boolean;
  modifierGroups: { id: string; minSelections: number; maxSelections: number; maxPerOption: number; options: { id: string; price: string; available: boolean }[] }[];
};

const minor = (decimal: string) => {
  const value = parseDecimalToMinor(decimal, "usd");
  if (value === undefined) throw new Error(`not a price: ${decimal}`);
  return value;
};

/** Available products of a location with their option prices, read through the public API. */
export async function loadCatalog(app: TestApp, locationId: string, limit: number): Promise<CatalogProduct[]> {
  const list = await app.call("GET", `/locations/${locationId}/products?limit=500`);
  const products = (list.body as { products: ProductBody[] }).products.filter((product) => product.available).slice(0, limit);
  return products.map((product) => ({
    id: product.id,
    priceMinor: minor(product.price),
    groups: product.modifierGroups.map((group) => ({ ...group, options: group.options.map((option) => ({ id: option.id, priceMinor: minor(option.price), available: option.available })) })),
  }));
}

export type Selection = { modifierGroupId: string; optionId: string };

/** A valid selection for the product: each required group filled, optional groups filled when `picks` says so. */
export function selectionsFor(product: CatalogProduct, picks: readonly number[]): Selection[] {
  return product.groups.flatMap((group, index) => {
    const available = group.options.filter((option) => option.available);
    const pick = picks[index % Math.max(picks.length, 1)] ?? 0;
    const count = group.minSelections > 0 ? group.minSelections : pick % 2 === 1 && group.maxSelections > 0 ? 1 : 0;
    return Array.from({ length: Math.min(count, available.length) }, (_, offset) => available[(pick + offset) % available.length]).map((option) => ({
      modifierGroupId: group.id,
      optionId: option?.id ?? "",
    }));
  });
}

export type ModelLine = { id: string; productId: string; selections: Selection[]; instructions: string; quantity: number };

export type ModelCart = {
  lines: ModelLine[];
  discountCode: string | null;
  gratuity: GratuityChoice | null;
  pickupType: "ASAP" | "LATER";
  orderDate: string;
  orderTime: string;
};

/** Same rule as the service: same product, options (in any order) and instructions are one line. */
export function configurationKey(line: { productId: string; selections: readonly Selection[]; instructions: string }): string {
  const options = line.selections.map((selection) => `${selection.modifierGroupId}/${selection.optionId}`).sort();
  return JSON.stringify([line.productId, options, line.instructions]);
}

export type CartItemView = {
  id: string;
  productId: string;
  quantity: number;
  specialInstructions: string;
  selections: { modifierGroupId: string; optionId: string; quantity: number }[];
};

export type CartView = {
  revision: number;
  currency: "usd";
  items: CartItemView[];
  discountCode?: string;
  pickupType: "ASAP" | "LATER";
  orderDate: string;
  orderTime: string;
  fees: { tipRate: string };
  totalQuantity: number;
  orderTotalWithServiceFeeAmount: number;
} & Record<string, unknown>;

export function modelFromView(view: CartView, gratuity: GratuityChoice | null): ModelCart {
  return {
    lines: view.items.map((item) => ({
      id: item.id,
      productId: item.productId,
      selections: item.selections.map((selection) => ({ modifierGroupId: selection.modifierGroupId, optionId: selection.optionId })),
      instructions: item.specialInstructions,
      quantity: item.quantity,
    })),
    discountCode: view.discountCode ?? null,
    gratuity,
    pickupType: view.pickupType,
    orderDate: view.orderDate,
    orderTime: view.orderTime,
  };
}

/** The stored-line shape pricing needs, priced from the catalog the API published. */
export function pricedLines(model: ModelCart, catalog: readonly CatalogProduct[]): CartLine[] {
  return model.lines.map((line) => {
    const product = catalog.find((candidate) => candidate.id === line.productId);
    if (!product) throw new Error(`model line of unknown product ${line.productId}`);
    return {
      id: line.id,
      productId: line.productId,
      name: "",
      description: "",
      imageUrl: "",
      categoryId: "",
      quantity: line.quantity,
      basePriceMinor: product.priceMinor,
      selections: line.selections.map((selection) => {
        const option = product.groups.find((group) => group.id === selection.modifierGroupId)?.options.find((candidate) => candidate.id === selection.optionId);
        if (!option) throw new Error(`model selection ${selection.modifierGroupId}/${selection.optionId} not in the catalog`);
        return { modifierGroupId: selection.modifierGroupId, modifierGroupName: "", optionId: selection.optionId, optionName: "", quantity: 1, priceMinor: option.priceMinor };
      }),
      specialInstructions: line.instructions,
      itemUnavailableAction: "remove_item",
    };
  });
}

/** What the model says about a view, in one comparable value. */
export function comparableView(view: CartView) {
  return {
    lines: view.items.map((item) => ({ id: item.id, key: configurationKey({ productId: item.productId, selections: item.selections, instructions: item.specialInstructions }), quantity: item.quantity })),
    discountCode: view.discountCode ?? null,
    tipRate: view.fees.tipRate,
    pickupType: view.pickupType,
    orderDate: view.orderDate,
    orderTime: view.orderTime,
  };
}

export function comparableModel(model: ModelCart) {
  return {
    lines: model.lines.map((line) => ({ id: line.id, key: configurationKey(line), quantity: line.quantity })),
    discountCode: model.discountCode,
    tipRate: model.gratuity?.kind === "rate" ? model.gratuity.rate : "0",
    pickupType: model.pickupType,
    orderDate: model.orderDate,
    orderTime: model.orderTime,
  };
}

