export * from "./catalog";
export * from "./carts";
export * from "./orders";
export * from "./customers";
