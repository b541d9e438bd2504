/**
 * Runs `step` (one batch, one transaction) until it reports fewer rows than a full batch or the
 * deadline passes. Each step claims its rows with FOR UPDATE SKIP LOCKED (or a compare-and-set),
 * so instances running the same job at once take different rows and never wait on each other.
 */
export async function untilDone(batchSize: number, deadline: number, step: () => Promise<number>): Promise<{ processed: number; batches: number; complete: boolean }> {
  let processed = 0;
  let batches = 0;
  while (Date.now() < deadline) {
    const changed = await step();
    processed += changed;
    batches += 1;
    if (changed < batchSize) return { processed, batches, complete: true };
  }
  return { processed, batches, complete: false };
}
