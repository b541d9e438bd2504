import type { Env } from "../../env";

/**
 * Orders are routed by the platform itself (authority.orderRouting = platform). Until a kitchen
 * integration exists, the simulated kitchen accepts every paid order ORDER_ACCEPT_DELAY_SECONDS
 * after it was placed: the acceptance time is known when the order is placed and stored with it,
 * and whether it has passed is read against the injected clock, so tests move the clock instead of
 * waiting, and nothing is written when a client polls.
 */
export function scheduledAcceptance(placedAt: Date, env: Pick<Env, "ORDER_ACCEPT_DELAY_SECONDS">): Date {
  return new Date(placedAt.getTime() + env.ORDER_ACCEPT_DELAY_SECONDS * 1000);
}

export function isAccepted(order: { acceptedAt: Date | null }, now: Date): boolean {
  return order.acceptedAt !== null && order.acceptedAt <= now;
}
