import { expect, test } from "@playwright/test";
import { addProduct, openCart, openLocation, serverCart, snap } from "./support";

test.describe("discount and tip on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test("an invalid code is refused with the server's reason, a valid one discounts, presets set the tip", async ({ page, request }, testInfo) => {
    await openLocation(page);
    await snap(page, testInfo, "07-phone-menu");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await addProduct(page, "Harbor Burger", async (dialog) => {
      await dialog.getByRole("radio", { name: /^Medium rare/ }).check();
    });
    await addProduct(page, "Grilled Salmon");

    const drawer = await openCart(page);
    await expect(drawer.getByTestId("cart-line")).toHaveCount(2);
    const code = drawer.getByLabel("Discount code");

    // Inactive code: the server's VALIDATION_ERROR, next to the field.
    await code.fill("EXPIRED20");
    await drawer.getByRole("button", { name: "Apply" }).click();
    const refusal = drawer.locator("#discount-error");
    await expect(refusal).toContainText(`Discount code "EXPIRED20" is not valid here`);
    await expect(code).toHaveAttribute("aria-invalid", "true");
    await expect(drawer.getByTestId("total-discount")).toHaveCount(0);

    await code.fill("welcome10");
    await drawer.getByRole("button", { name: "Apply" }).click();
    await expect(drawer.getByTestId("applied-discount")).toContainText("WELCOME10");
    await expect(refusal).toHaveCount(0);
    let cart = await serverCart(page, request);
    expect(cart.discountCode).toBe("WELCOME10");
    await expect(drawer.getByTestId("total-discount")).toHaveText(`−${String(cart.discountTotalFormatted)}`);
    await expect(drawer.getByTestId("total-order")).toHaveText(String(cart.orderTotalWithServiceFeeFormatted));

    // Tip presets come from the gratuity procedure.
    const tips = drawer.getByRole("group", { name: "Tip for the team" });
    // Each preset shows what it comes to, not only its percentage.
    await expect(tips.getByRole("button")).toHaveText(["No tip", /^15% · \$\d+\.\d{2}$/, /^18% · \$\d+\.\d{2}$/, /^20% · \$\d+\.\d{2}$/, "Custom"]);
    const eighteen = tips.getByRole("button", { name: /^18%/ });
    const shown = (await eighteen.textContent())?.split(" · ")[1];
    await eighteen.click();
    await expect(eighteen).toHaveAttribute("aria-pressed", "true");
    cart = await serverCart(page, request);
    expect((cart.fees as { tipRate: string }).tipRate).toBe("0.18");
    expect(shown).toBe(String(cart.waiterTipTotalFormatted));
    await expect(drawer.getByTestId("total-tip")).toHaveText(String(cart.waiterTipTotalFormatted));
    await expect(drawer.getByTestId("total-order")).toHaveText(String(cart.orderTotalWithServiceFeeFormatted));
    await snap(page, testInfo, "08-phone-cart-discount-tip");

    // A custom amount; a malformed one is caught before sending.
    await tips.getByRole("button", { name: "Custom" }).click();
    const amount = drawer.getByLabel("Tip amount (USD)");
    await amount.fill("4.555");
    await drawer.getByRole("button", { name: "Set tip" }).click();
    await expect(drawer.getByText("Enter an amount such as 5 or 4.50.")).toBeVisible();
    await amount.fill("5");
    await drawer.getByRole("button", { name: "Set tip" }).click();
    await expect(drawer.getByTestId("total-tip")).toHaveText("$5.00");
    await expect(tips.getByRole("button", { name: "Custom" })).toHaveAttribute("aria-pressed", "true");

    await drawer.getByRole("button", { name: "Remove code" }).click();
    await expect(drawer.getByTestId("total-discount")).toHaveCount(0);
    await expect(drawer.getByLabel("Discount code")).toBeVisible();
    cart = await serverCart(page, request);
    expect(cart.discountCode).toBeUndefined();
    await expect(drawer.getByTestId("total-order")).toHaveText(String(cart.orderTotalWithServiceFeeFormatted));
  });
});
