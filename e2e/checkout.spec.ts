import { expect, test, type Page } from "@playwright/test";
import { addProduct, cartCount, expectReceipt, HARBOR, openCart, openLocation, payWithTestCard, publishCatalog, serverCart, snap, storedCart } from "./support";

/** The order record the status page keeps for a cart (its capability, then the receipt's). */
async function orderRecord(page: Page, cartId: string): Promise<{ cartAccessToken: string; receipt?: { receiptId: string; receiptToken: string } }> {
  const text = await page.evaluate((key) => window.localStorage.getItem(key), `storefront.order.${cartId}`);
  if (!text) throw new Error("no order record");
  return JSON.parse(text) as { cartAccessToken: string; receipt?: { receiptId: string; receiptToken: string } };
}

const LOBSTER_ROLL = { productId: "prd_hk_lobster_roll", priceMinor: 2850 };

test.describe("checkout with test cards", () => {
  test("a good card pays the server's total and shows the receipt, also after a reload", async ({ page, request }, testInfo) => {
    await openLocation(page);
    await addProduct(page, "Harbor Burger", async (dialog) => {
      await dialog.getByRole("radio", { name: /^Medium rare/ }).check();
    });
    await addProduct(page, "Fish & Chips");
    const drawer = await openCart(page);
    const cart = await serverCart(page, request);
    const total = String(cart.orderTotalWithServiceFeeFormatted);
    await expect(drawer.getByTestId("pay-button")).toHaveText(`Pay ${total}`);
    await expect(drawer.getByRole("radio", { name: /ending 4242/ })).toBeChecked();
    await drawer.getByTestId("pay-button").scrollIntoViewIfNeeded();
    await snap(page, testInfo, "14-checkout-test-cards");

    await payWithTestCard(drawer, "4242");
    const receipt = await expectReceipt(page, String(cart.id));
    await expect(page.getByTestId("order-heading")).toBeFocused();
    const lines = receipt.getByTestId("receipt-line");
    await expect(lines).toHaveCount(2);
    await expect(lines.filter({ hasText: "1 × Harbor Burger" })).toContainText("Doneness: Medium rare");
    await expect(lines.filter({ hasText: "1 × Fish & Chips" })).toContainText("$19.95");
    await expect(receipt.getByTestId("receipt-subTotalWithoutDiscount")).toHaveText(String(cart.subTotalWithoutDiscountFormatted));
    await expect(receipt.getByTestId("receipt-taxTotal")).toHaveText(String(cart.taxTotalFormatted));
    await expect(receipt.getByTestId("receipt-total")).toHaveText(total);
    await expect(receipt.getByTestId("receipt-payment")).toHaveText(`Paid ${total} with VISA ending 4242`);
    await snap(page, testInfo, "15-receipt");

    // The server agrees, through the capability the page kept (never in the URL).
    const record = await orderRecord(page, String(cart.id));
    expect(page.url()).not.toContain(record.cartAccessToken);
    const result = await request.get(`/api/v1/storefront/locations/${HARBOR.locationId}/carts/${String(cart.id)}/order-result`, { headers: { "X-Cart-Token": record.cartAccessToken } });
    expect(((await result.json()) as { status: string }).status).toBe("completed");

    await page.reload();
    await expectReceipt(page, String(cart.id));

    // Back on the menu the paid cart is gone: the next item starts a new one.
    await page.getByRole("link", { name: "Order something else" }).click();
    await expect(cartCount(page)).toHaveText("0");
    expect(await page.evaluate((key) => window.localStorage.getItem(key), `storefront.cart.${HARBOR.locationId}`)).toBeNull();
  });

  test("a declined card and one that needs authentication leave the cart open; another card then pays", async ({ page, request }, testInfo) => {
    await openLocation(page);
    await addProduct(page, "Grilled Salmon");
    const drawer = await openCart(page);
    const before = await serverCart(page, request);

    await payWithTestCard(drawer, "0002");
    const failure = drawer.getByTestId("payment-failure");
    await expect(failure).toContainText("Payment not completed. Your card was declined.");
    await expect(failure).toContainText("Nothing was charged.");
    await expect(drawer.getByTestId("pay-button")).toBeEnabled();
    await expect(drawer.getByTestId("cart-line")).toHaveCount(1);
    const afterDecline = await serverCart(page, request);
    expect(afterDecline.status).toBe("OPEN");
    expect(afterDecline.revision).toBeGreaterThan(Number(before.revision));
    expect((await storedCart(page)).revision).toBe(afterDecline.revision);
    await failure.scrollIntoViewIfNeeded();
    await snap(page, testInfo, "16-card-declined");

    await payWithTestCard(drawer, "3184");
    await expect(failure).toContainText("authentication");
    await expect(failure).toContainText("The bank asked for a confirmation step that this demo cannot show.");
    expect((await serverCart(page, request)).status).toBe("OPEN");

    await payWithTestCard(drawer, "4242");
    const receipt = await expectReceipt(page, String(before.id));
    await expect(receipt.getByTestId("receipt-payment")).toHaveText(`Paid ${String(before.orderTotalWithServiceFeeFormatted)} with VISA ending 4242`);
  });

  test.describe("a price change between cart and checkout", () => {
    test.afterEach(async ({ request }) => {
      await publishCatalog(request, [{ kind: "productPrice", ...LOBSTER_ROLL }]);
    });

    test("is shown when paying, accepted, and then paid at the new price", async ({ page, request }, testInfo) => {
      await openLocation(page);
      await addProduct(page, "Lobster Roll", async (dialog) => {
        await dialog.getByRole("radio", { name: /^Maine/ }).check();
      });
      const drawer = await openCart(page);
      const line = drawer.getByTestId("cart-line").filter({ hasText: "Lobster Roll" });
      await expect(line).toContainText("$28.50");

      // The restaurant raises the price while the customer is at checkout.
      await publishCatalog(request, [{ kind: "productPrice", productId: LOBSTER_ROLL.productId, priceMinor: 3150 }]);
      await payWithTestCard(drawer, "4242");

      const review = drawer.getByRole("region", { name: "Your cart changed since it was priced" });
      await expect(review).toBeFocused();
      const change = review.getByTestId("revalidation-change");
      await expect(change).toHaveCount(1);
      await expect(change).toContainText("Lobster Roll · Price changed: was $28.50, now $31.50");
      await expect(drawer.getByRole("status").filter({ hasText: "Your cart changed since it was priced" })).toBeVisible();
      // The check already applied the new price; paying waits for the customer's yes.
      await expect(line).toContainText("$31.50");
      const checked = await serverCart(page, request);
      await expect(drawer.getByTestId("total-order")).toHaveText(String(checked.orderTotalWithServiceFeeFormatted));
      await expect(drawer.getByTestId("checkout-blocker")).toHaveText("Review the changes to your cart above before paying.");
      await expect(drawer.getByTestId("pay-button")).toBeDisabled();
      await snap(page, testInfo, "17-price-change-review");

      await review.getByRole("button", { name: "Accept changes" }).click();
      await expect(drawer.getByTestId("revalidation-note")).toHaveText("Your cart is up to date. You can pay now.");
      await expect(review).toHaveCount(0);
      const accepted = await serverCart(page, request);
      expect((accepted.catalogRevalidation as { required: boolean; acknowledgedAt: string | null }).required).toBe(false);

      await payWithTestCard(drawer, "4242");
      const receipt = await expectReceipt(page, String(accepted.id));
      await expect(receipt.getByTestId("receipt-line")).toContainText("1 × Lobster Roll");
      await expect(receipt.getByTestId("receipt-line")).toContainText("$31.50");
      await expect(receipt.getByTestId("receipt-total")).toHaveText(String(accepted.orderTotalWithServiceFeeFormatted));
    });

    test("is shown when the cart is opened, and accepting it brings the cart up to date", async ({ page, request }) => {
      await openLocation(page);
      await addProduct(page, "Lobster Roll", async (dialog) => {
        await dialog.getByRole("radio", { name: /^Connecticut/ }).check();
      });
      await publishCatalog(request, [{ kind: "productPrice", productId: LOBSTER_ROLL.productId, priceMinor: 2650 }]);

      const drawer = await openCart(page);
      const review = drawer.getByRole("region", { name: "Your cart changed since it was priced" });
      await expect(review.getByTestId("revalidation-change")).toContainText("Lobster Roll · Price changed: was $28.50, now $26.50");
      // A read reports the news without applying it: the line still shows the price it was priced at.
      await expect(drawer.getByTestId("cart-line")).toContainText("$28.50");

      await review.getByRole("button", { name: "Accept changes" }).click();
      await expect(drawer.getByTestId("revalidation-note")).toHaveText("Your cart is up to date. You can pay now.");
      await expect(drawer.getByTestId("cart-line")).toContainText("$26.50");
      const cart = await serverCart(page, request);
      expect((cart.catalogRevalidation as { required: boolean }).required).toBe(false);
      await expect(drawer.getByTestId("total-order")).toHaveText(String(cart.orderTotalWithServiceFeeFormatted));
      await expect(drawer.getByTestId("pay-button")).toBeEnabled();
    });
  });
});
