export * from "./catalog";
export * from "./carts";
