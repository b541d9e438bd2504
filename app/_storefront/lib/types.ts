import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers";

/**
 * The storefront's view of the API, derived from the router so that a schema change on the server
 * is a type error here. Type-only: no server code reaches the browser bundle.
 */
type Outputs = inferRouterOutputs<AppRouter>;
type Inputs = inferRouterInputs<AppRouter>;

export type Cart = Outputs["carts"]["get"];
export type CartItem = Cart["items"][number];
export type Location = Outputs["catalog"]["location"];
export type Menus = Outputs["catalog"]["menus"];
export type MenuList = Outputs["catalog"]["menus"];
export type Menu = MenuList["menus"][number];
export type Category = Menu["categories"][number];
export type Product = Category["products"][number];
export type ModifierGroup = Product["modifierGroups"][number];
export type ModifierOption = ModifierGroup["options"][number];
export type TimeIntervals = Outputs["catalog"]["timeIntervals"];
export type GratuityPolicy = Outputs["catalog"]["gratuity"];
export type FulfilmentMethod = Cart["fulfilmentMethod"];
export type SelectionInput = Inputs["carts"]["addItem"]["selections"][number];
export type OrderTimeChoice = { pickupType: "ASAP" } | { pickupType: "LATER"; orderDate: string; orderTime: string };
export type GratuityChoice = { rate: string } | { amount: string };
export type DeliveryAddressInput = Omit<Inputs["carts"]["setDelivery"], "locationId" | "cartId">;
export type DeliveryCountry = DeliveryAddressInput["country"];
export type ServiceDetailsInput = Omit<Inputs["carts"]["setServiceDetails"], "locationId" | "cartId">;
export type DeliveryQuote = NonNullable<Cart["deliveryQuote"]>;
export type CatalogRevalidation = NonNullable<Cart["catalogRevalidation"]>;
export type RevalidationChange = CatalogRevalidation["changeSet"]["changes"][number];
export type PermittedAction = RevalidationChange["permittedActions"][number];
export type PaymentConfig = Outputs["checkout"]["config"];
export type PaymentSession = Outputs["checkout"]["paymentSession"];
export type OrderResult = Outputs["checkout"]["orderResult"];
export type Receipt = Outputs["receipts"]["get"];
export type Customer = Outputs["customer"]["get"];
export type CustomerOrdersPage = Outputs["customer"]["orders"];
export type CustomerOrder = CustomerOrdersPage["orders"][number];
export type LoyaltyLedger = Outputs["customer"]["loyaltyLedger"];
export type LoginChallenge = Outputs["customer"]["login"];
