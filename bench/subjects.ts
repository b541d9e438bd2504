import { CONTROL_PREFIX } from "./controls/prefix";

/** What is measured: the REST facade, and two controls that run the same services without it. */
export type SubjectId = "rest" | "route" | "node";

export type OperationPaths = {
  menus: (locationId: string) => string;
  orderingSession: (locationId: string) => string;
  addItem: (locationId: string, cartId: string) => string;
  cart: (locationId: string, cartId: string) => string;
};

/** `processGroup`: the server's process group, for its CPU time per request (bench/process-cpu.ts). */
export type Subject = { id: SubjectId; label: string; baseUrl: string; paths: OperationPaths; processGroup?: number | undefined };

const REST = "/api/v1/storefront";
const enc = encodeURIComponent;

const restPaths: OperationPaths = {
  menus: (locationId) => `${REST}/locations/${enc(locationId)}/menus`,
  orderingSession: (locationId) => `${REST}/locations/${enc(locationId)}/ordering-sessions`,
  addItem: (locationId, cartId) => `${REST}/locations/${enc(locationId)}/carts/${enc(cartId)}/items`,
  cart: (locationId, cartId) => `${REST}/locations/${enc(locationId)}/carts/${enc(cartId)}`,
};

const controlPaths: OperationPaths = {
  menus: (locationId) => `${CONTROL_PREFIX}/menus?locationId=${enc(locationId)}`,
  orderingSession: (locationId) => `${CONTROL_PREFIX}/ordering-session?locationId=${enc(locationId)}`,
  addItem: (locationId, cartId) => `${CONTROL_PREFIX}/add-item?locationId=${enc(locationId)}&cartId=${enc(cartId)}`,
  cart: (locationId, cartId) => `${CONTROL_PREFIX}/cart?locationId=${enc(locationId)}&cartId=${enc(cartId)}`,
};

export function subjects(app: { baseUrl: string; processGroup?: number | undefined }, nodeControl: { baseUrl: string; processGroup?: number | undefined }): Subject[] {
  return [
    { id: "rest", label: "REST facade", ...app, paths: restPaths },
    { id: "route", label: "plain route", ...app, paths: controlPaths },
    { id: "node", label: "node:http", ...nodeControl, paths: controlPaths },
  ];
}
