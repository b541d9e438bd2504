import { expect, test } from "@playwright/test";
import { addProduct, expectReceipt, openCart, openLocation, payWithTestCard, serverCart, snap } from "./support";

/** Formats a minor amount the way the storefront shows USD (test-side only). */
const usd = (minor: number) => `$${(minor / 100).toFixed(2)}`;

test.describe("delivery on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test("an address out of range is refused, a nearby one is quoted, the courier gets a tip, and the receipt shows both", async ({ page, request }, testInfo) => {
    await openLocation(page);
    await page.getByRole("group", { name: "How would you like your order?" }).getByRole("radio", { name: /Delivery/ }).check();
    await addProduct(page, "Crispy Chicken Sandwich");
    await addProduct(page, "Fish & Chips");
    const drawer = await openCart(page);

    // No address yet: nothing to pay for.
    await expect(drawer.getByTestId("checkout-blocker")).toHaveText("Add a delivery address above to pay.");
    await expect(drawer.getByTestId("pay-button")).toBeDisabled();

    // A required field missing is caught before anything is sent.
    await drawer.getByRole("button", { name: "Save address and get a quote" }).click();
    await expect(drawer.getByLabel("Street and number")).toBeFocused();
    await expect(drawer.getByLabel("Street and number")).toHaveAttribute("aria-invalid", "true");

    // Worcester is ~63 km from the restaurant: the courier refuses it and the cart keeps no address.
    await drawer.getByLabel("Street and number").fill("455 Main Street");
    await drawer.getByLabel("City").fill("Worcester");
    await drawer.getByLabel("State / region").fill("MA");
    await drawer.getByLabel("ZIP / postal code").fill("01608");
    await expect(drawer.getByLabel("Country")).toHaveValue("United States");
    await drawer.getByLabel("Latitude").fill("42.2626");
    await drawer.getByLabel("Longitude").fill("-71.8023");
    await drawer.getByRole("button", { name: "Save address and get a quote" }).click();
    const refusal = drawer.locator("#delivery-error");
    await expect(refusal).toContainText("We could not use this address.");
    await expect(refusal).toContainText(/The courier cannot deliver to this address: The address is \d+\.\d km away; deliveries reach 8 km/);
    await snap(page, testInfo, "11-phone-delivery-out-of-range");
    expect((await serverCart(page, request)).deliveryInfo ?? null).toBeNull();

    // The demo address near the restaurant: quoted, stored, and priced into the totals.
    await drawer.getByRole("button", { name: "Use a demo address near the restaurant" }).click();
    await expect(drawer.getByLabel("Street and number")).toHaveValue("1 Faneuil Hall Square");
    await drawer.getByRole("button", { name: "Save address and get a quote" }).click();
    await expect(drawer.getByTestId("delivery-address")).toHaveText("1 Faneuil Hall Square, Boston, MA 02109, United States");
    await expect(refusal).toHaveCount(0);
    let cart = await serverCart(page, request);
    const quote = cart.deliveryQuote as { feeMinor: number; dropoffEstimatedAt: string };
    await expect(drawer.getByTestId("courier-fee")).toHaveText(usd(quote.feeMinor));
    const eta = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZone: "America/New_York" }).format(new Date(quote.dropoffEstimatedAt));
    await expect(drawer.getByTestId("delivery-eta")).toHaveText(eta);
    await expect(drawer.getByTestId("total-fulfilment-fee")).toHaveText(String(cart.fulfillmentMethodFeeTotalFormatted));

    // Courier tip: a preset, then a custom amount (a malformed one is caught first).
    const tips = drawer.getByRole("group", { name: "Tip for your courier" });
    await tips.getByRole("button", { name: "$3.00" }).click();
    await expect(tips.getByRole("button", { name: "$3.00" })).toHaveAttribute("aria-pressed", "true");
    await expect(drawer.getByTestId("total-courier-tip")).toHaveText("$3.00");
    await tips.getByRole("button", { name: "Custom" }).click();
    const amount = drawer.getByLabel("Courier tip (USD)");
    await amount.fill("4.555");
    await drawer.getByRole("button", { name: "Set courier tip" }).click();
    await expect(drawer.getByText("Enter an amount such as 4 or 4.50.")).toBeVisible();
    await amount.fill("4.50");
    await drawer.getByRole("button", { name: "Set courier tip" }).click();
    await expect(drawer.getByTestId("total-courier-tip")).toHaveText("$4.50");
    await expect(tips.getByRole("button", { name: "Custom" })).toHaveAttribute("aria-pressed", "true");
    cart = await serverCart(page, request);
    expect(cart.courierTipTotal).toBe("4.50");
    await expect(drawer.getByTestId("total-order")).toHaveText(String(cart.orderTotalWithServiceFeeFormatted));
    await drawer.getByTestId("delivery-quote").scrollIntoViewIfNeeded();
    await snap(page, testInfo, "12-phone-delivery-quote-and-tip");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await payWithTestCard(drawer, "4242");
    const receipt = await expectReceipt(page, String(cart.id));
    await expect(receipt.getByTestId("receipt-fulfilment")).toContainText("Delivery: As soon as possible · to 1 Faneuil Hall Square, Boston, MA 02109, United States");
    await expect(receipt.getByTestId("receipt-courierTipTotal")).toHaveText("$4.50");
    await expect(receipt.getByTestId("receipt-total")).toHaveText(String(cart.orderTotalWithServiceFeeFormatted));
    await snap(page, testInfo, "13-phone-delivery-receipt");
  });
});
