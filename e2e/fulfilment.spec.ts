import { expect, test } from "@playwright/test";
import { addProduct, cartCount, expectReceipt, HARBOR, openCart, openLocation, payWithTestCard, serverCart, snap, storedCart } from "./support";

test.describe("fulfilment method", () => {
  test("the method is fixed per ordering session: switching asks first, then starts a new cart", async ({ page, request }, testInfo) => {
    await openLocation(page);
    const methods = page.getByRole("group", { name: "How would you like your order?" });
    await expect(methods.getByRole("radio", { name: "Takeout" })).toBeChecked();

    // Before any cart exists the choice is free, and the first item starts a delivery session.
    await methods.getByRole("radio", { name: /Delivery/ }).check();
    await addProduct(page, "Crispy Chicken Sandwich");
    const deliveryCart = await serverCart(page, request);
    const deliveryHandle = await storedCart(page);
    expect(deliveryCart.fulfilmentMethod).toBe("delivery");

    let drawer = await openCart(page);
    await expect(drawer.getByRole("heading", { name: "Delivery address" })).toBeVisible();
    await expect(drawer.getByTestId("total-fulfilment-fee")).toHaveText(String(deliveryCart.fulfillmentMethodFeeTotalFormatted));
    await drawer.getByRole("button", { name: "Close cart" }).click();

    // With items in the cart, switching needs a confirmation; keeping the cart changes nothing.
    await methods.getByRole("radio", { name: "Takeout" }).check();
    const confirm = page.getByRole("alert").filter({ hasText: "starts a new cart" });
    await expect(confirm).toContainText("The 1 item in your delivery cart will not carry over.");
    await snap(page, testInfo, "10-switch-method-confirmation");
    await confirm.getByRole("button", { name: "Keep my delivery cart" }).click();
    await expect(confirm).toHaveCount(0);
    await expect(methods.getByRole("radio", { name: /Delivery/ })).toBeChecked();
    expect((await storedCart(page)).cartId).toBe(deliveryHandle.cartId);

    await methods.getByRole("radio", { name: "Takeout" }).check();
    await confirm.getByRole("button", { name: "Start a new takeout cart" }).click();
    await expect(cartCount(page)).toHaveText("0");
    await expect(methods.getByRole("radio", { name: "Takeout" })).toBeChecked();
    const takeoutCart = await serverCart(page, request);
    expect(takeoutCart.id).not.toBe(deliveryCart.id);
    expect(takeoutCart.fulfilmentMethod).toBe("takeout");

    // The abandoned cart was expired, not left open.
    const old = await request.get(`/api/v1/storefront/locations/${HARBOR.locationId}/carts/${deliveryHandle.cartId}`, {
      headers: { "X-Cart-Token": deliveryHandle.cartAccessToken },
    });
    expect(old.status()).toBe(200);
    expect(((await old.json()) as { status: string }).status).toBe("EXPIRED");

    drawer = await openCart(page);
    await expect(drawer.getByText("Your cart is empty.")).toBeVisible();
    await expect(drawer.getByRole("heading", { name: "Delivery address" })).toHaveCount(0);
  });

  test("a table-side order asks for the table before it can be paid, and the receipt names it", async ({ page, request }, testInfo) => {
    await openLocation(page);
    await page.getByRole("group", { name: "How would you like your order?" }).getByRole("radio", { name: /Table-side/ }).check();
    await addProduct(page, "Fish & Chips");
    const cartId = (await storedCart(page)).cartId;
    const drawer = await openCart(page);
    const form = drawer.getByRole("form", { name: "Table number" });
    // The server refuses payment without the table (SERVICE_DETAILS_MISSING): the page says so first.
    await expect(drawer.getByTestId("checkout-blocker")).toHaveText("Enter your table number above to pay.");
    await expect(drawer.getByTestId("pay-button")).toBeDisabled();
    await form.getByRole("textbox", { name: "Table number" }).fill("12");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(drawer.getByTestId("service-details")).toHaveText("Table 12");
    expect((await serverCart(page, request)).tableServiceInfo).toEqual({ tableNumber: "12" });
    await snap(page, testInfo, "11-table-side-details");
    await payWithTestCard(drawer, "4242");
    const receipt = await expectReceipt(page, cartId);
    await expect(receipt.getByTestId("receipt-fulfilment")).toContainText("· table 12");
  });
});
