import { CONTROL_PREFIX } from "./controls/prefix";

/**
 * What is measured: the REST facade on both of its mounts, the fast path (`npm start` serves
 * /api/v1/storefront straight from its node:http server into the REST handler, REST_MOUNT=direct) and
 * the Next path (the same handler behind Next's route, REST_MOUNT=next: what Vercel runs), each in its
 * own app process; two controls that run the same services without the facade (plain route,
 * node:http); and the floor, the same operations as bare SQL over postgres.js with no service code,
 * in the plain route (K1) and on bare node:http (K0) (bench/controls/floor-sql.ts).
 */
export type SubjectId = "rest" | "rest-next" | "route" | "node" | "floor-route" | "floor-node";

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

/** The controls' operations under CONTROL_PREFIX, their names prefixed (`floor-` for the floor). */
function controlPaths(prefix: string): OperationPaths {
  const at = (operation: string) => `${CONTROL_PREFIX}/${prefix}${operation}`;
  return {
    menus: (locationId) => `${at("menus")}?locationId=${enc(locationId)}`,
    orderingSession: (locationId) => `${at("ordering-session")}?locationId=${enc(locationId)}`,
    addItem: (locationId, cartId) => `${at("add-item")}?locationId=${enc(locationId)}&cartId=${enc(cartId)}`,
    cart: (locationId, cartId) => `${at("cart")}?locationId=${enc(locationId)}&cartId=${enc(cartId)}`,
  };
}
const servicePaths = controlPaths("");
const floorPaths = controlPaths("floor-");

/** A server the subjects are measured on: its base URL and process group. */
export type Server = { baseUrl: string; processGroup?: number | undefined };

/**
 * `app`: `npm start` with the fast path (REST_MOUNT=direct) and the bench control routes, which also
 * serves the plain route and K1; `appNext`: the same build with REST_MOUNT=next, REST only;
 * `nodeControl`: the bare node:http control (node:http and K0).
 */
export function subjects(servers: { app: Server; appNext: Server; nodeControl: Server }): Subject[] {
  const { app, appNext, nodeControl } = servers;
  return [
    { id: "rest", label: "REST, fast path", ...app, paths: restPaths },
    { id: "rest-next", label: "REST, Next path", ...appNext, paths: restPaths },
    { id: "route", label: "plain route", ...app, paths: servicePaths },
    { id: "node", label: "node:http", ...nodeControl, paths: servicePaths },
    { id: "floor-route", label: "floor, plain route (K1)", ...app, paths: floorPaths },
    { id: "floor-node", label: "floor, node:http (K0)", ...nodeControl, paths: floorPaths },
  ];
}
