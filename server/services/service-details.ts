import { AppError } from "../errors";
import type { CartView } from "../schemas/cart";
import { mutateCart, type CartIds } from "./carts";
import type { CartMutationContext } from "./operation-context";

/** Where a table-side or room-service order goes: the table, or the room and the guest's last name. */
export type ServiceDetails = { tableServiceInfo: { tableNumber: string } } | { roomServiceInfo: { lastName: string; roomNumber: string } };

/**
 * Sets where a table-side or room-service order is served; checkout refuses those carts without it
 * (SERVICE_DETAILS_MISSING). Details for the other method, or for a takeout or delivery cart, are 409
 * RESOURCE_CONFLICT naming the cart's method: they would be kept and never used.
 */
export function setServiceDetails(ctx: CartMutationContext, ids: CartIds, details: ServiceDetails): Promise<CartView> {
  return mutateCart(ctx, ids, ({ cart }) => {
    const wanted = "tableServiceInfo" in details ? "table_side" : "room_service";
    if (cart.fulfilmentMethod !== wanted) {
      throw new AppError("RESOURCE_CONFLICT", `This is a ${cart.fulfilmentMethod} cart; ${"tableServiceInfo" in details ? "a table number" : "a room number"} is for a ${wanted} cart`, {
        details: { fulfilmentMethod: cart.fulfilmentMethod },
      });
    }
    return "tableServiceInfo" in details ? { tableServiceInfo: details.tableServiceInfo } : { roomServiceInfo: details.roomServiceInfo };
  });
}
