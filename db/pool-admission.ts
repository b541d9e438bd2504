/**
 * At most `size` operations (a query outside a transaction, or a whole transaction) are handed to
 * the driver at once, `size` being its pool size: an admitted operation always finds a connection
 * that no other admitted operation holds, so the driver never queues it, and the wait for a
 * connection happens here, where it can be bounded and withdrawn (the driver's own queue offers
 * neither). Waiters are admitted in arrival order; a permit passes straight to the next waiter.
 */
export type PoolAdmission = {
  /**
   * Calls `admitted` with the permit's release once a permit is free (at once when one is). The
   * answer withdraws a wait that has not been admitted yet; after admission it does nothing.
   * `release` must be called when the driver is done with the operation; later calls are no-ops.
   */
  enter(admitted: (release: () => void) => void): () => void;
};

export function poolAdmission(size: number): PoolAdmission {
  let inUse = 0;
  // A Set keeps insertion order (first in, first admitted) and withdraws a waiter in O(1).
  const waiting = new Set<() => void>();

  const permit = () => {
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const next = waiting.values().next();
      if (next.done) inUse -= 1;
      else {
        waiting.delete(next.value);
        next.value();
      }
    };
  };

  return {
    enter(admitted) {
      if (inUse < size) {
        inUse += 1;
        admitted(permit());
        return () => undefined;
      }
      const waiter = () => admitted(permit());
      waiting.add(waiter);
      return () => {
        waiting.delete(waiter);
      };
    },
  };
}
