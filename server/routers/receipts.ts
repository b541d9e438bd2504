import { z } from "zod";
import { receiptSchema } from "../schemas/checkout";
import { privateResponseHeaders, receiptIdParam } from "../schemas/common";
import { getReceipt } from "../services/checkout/receipts";
import { router } from "../trpc/init";
import { readProcedure } from "../trpc/procedures";
import { responseSchema } from "../trpc/response-validation";
import { receiptReadMeta } from "./meta";

export const receiptsRouter = router({
  get: readProcedure(
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
