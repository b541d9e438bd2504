import { describe, expect, it } from "vitest";
import type { Executor } from "../../db/client";
import { readAhead } from "./read-ahead";

/** Stand-ins for two transactions: the read-ahead only keys on their identity. */
const txA = {} as Executor;
const txB = {} as Executor;

function countingRead() {
  const calls: { db: Executor; id: string }[] = [];
  const ahead = readAhead((db: Executor, id: string) => {
    calls.push({ db, id });
    return id === "broken" ? Promise.reject(new Error("the read failed")) : Promise.resolve(`row ${id} #${calls.length}`);
  });
  return { ahead, calls };
}

describe("readAhead", () => {
  it("hands the read sent in a transaction to that transaction's first read with the same arguments, once", async () => {
    const { ahead, calls } = countingRead();
    ahead.send(txA, "cart_1");
    expect(calls).toEqual([{ db: txA, id: "cart_1" }]);
    expect(await ahead.read(txA, "cart_1")).toBe("row cart_1 #1");
    expect(calls).toHaveLength(1);
    // Taken once: a second read in the transaction reads again (it may follow a write).
    expect(await ahead.read(txA, "cart_1")).toBe("row cart_1 #2");
    expect(calls).toHaveLength(2);
  });

  it("reads as usual in another transaction, and leaves the sent read to its own", async () => {
    const { ahead, calls } = countingRead();
    ahead.send(txA, "cart_1");
    expect(await ahead.read(txB, "cart_1")).toBe("row cart_1 #2");
    expect(await ahead.read(txA, "cart_1")).toBe("row cart_1 #1");
    expect(calls.map(({ db, id }) => [db === txA ? "A" : "B", id])).toEqual([
      ["A", "cart_1"],
      ["B", "cart_1"],
    ]);
  });

  it("drops the sent read once the transaction has read with other arguments: a later read may follow a write", async () => {
    const { ahead, calls } = countingRead();
    ahead.send(txA, "cart_1");
    expect(await ahead.read(txA, "cart_2")).toBe("row cart_2 #2");
    expect(await ahead.read(txA, "cart_1")).toBe("row cart_1 #3");
    expect(calls).toHaveLength(3);
  });

  it("leaves a failed read that is never taken unreported, and reports it to the read that takes it", async () => {
    const { ahead } = countingRead();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      ahead.send(txA, "broken");
      ahead.send(txB, "broken");
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
      await expect(ahead.read(txB, "broken")).rejects.toThrow("the read failed");
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
