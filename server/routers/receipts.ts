import { z } from "zod";
import { receiptSchema } from "../schemas/checkout";
import { privateResponseHeaders, receiptIdParam } from "../schemas/common";
import { getReceipt } from "../services/checkout/receipts";
import { procedure, router } from "../trpc/init";
import { responseSchema } from "../trpc/response-validation";
import { receiptReadMeta } from "./meta";

export const receiptsRouter = router({
  get: procedure
    .meta(
      receiptReadMeta(
        {
          method: "GET",
          path: "/receipts/{receiptId}",
          tags: ["Receipts"],
          summary: "Read a receipt",
          description:
            "Lines, totals and formatted amounts, merchant and location, and a payment summary (card brand and last 4 digits). Credential: the receipt capability in X-Receipt-Token (the completed order result's receiptToken) or a customer JWT.",
        },
        privateResponseHeaders,
      ),
    )
    .input(z.object({ receiptId: receiptIdParam }))
    .output(responseSchema(receiptSchema))
    .query(({ ctx, input }) => getReceipt(ctx, input.receiptId)),
});
