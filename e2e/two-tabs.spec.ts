import { expect, test, type Page } from "@playwright/test";
import { addProduct, cartCount, openCart, openLocation, serverCart, snap, storedCart } from "./support";

async function lineNames(page: Page): Promise<string[]> {
  const drawer = await openCart(page);
  const lines = drawer.getByTestId("cart-line");
  const count = await lines.count();
  const names: string[] = [];
  for (let index = 0; index < count; index++) names.push((await lines.nth(index).locator("p").first().textContent()) ?? "");
  await drawer.getByRole("button", { name: "Close cart" }).click();
  return names.sort();
}

test.describe("one cart in two places", () => {
  test("two tabs of one browser both add items; after a reload neither tab lost one", async ({ context, request }, testInfo) => {
    const tabA = await context.newPage();
    const tabB = await context.newPage();
    await openLocation(tabA);
    await addProduct(tabA, "Crispy Calamari");

    await openLocation(tabB);
    await expect(cartCount(tabB)).toHaveText("1");
    expect((await storedCart(tabB)).cartId).toBe((await storedCart(tabA)).cartId);

    await addProduct(tabA, "Fish & Chips");
    await addProduct(tabB, "Grilled Salmon");
    await addProduct(tabA, "Boston Cream Pie");
    await addProduct(tabB, "Apple Cider Donuts");

    const expected = ["Apple Cider Donuts", "Boston Cream Pie", "Crispy Calamari", "Fish & Chips", "Grilled Salmon"];
    expect((await serverCart(tabA, request)).items.map((item) => item.name).sort()).toEqual(expected);
    await tabA.reload();
    await tabB.reload();
    for (const tab of [tabA, tabB]) {
      await expect(cartCount(tab)).toHaveText("5");
      expect(await lineNames(tab)).toEqual(expected);
    }
    await openCart(tabB);
    await snap(tabB, testInfo, "09-two-tabs-cart");
  });

  test("a second device holding an old revision reloads the cart and re-applies its change", async ({ browser, request }) => {
    const first = await browser.newContext();
    const pageA = await first.newPage();
    await openLocation(pageA);
    await addProduct(pageA, "Crispy Calamari");

    // Same cart, separate storage: nothing tells B about A's next change.
    const second = await browser.newContext({ storageState: await first.storageState() });
    const pageB = await second.newPage();
    await openLocation(pageB);
    await expect(cartCount(pageB)).toHaveText("1");

    await addProduct(pageA, "Fish & Chips");
    await expect(cartCount(pageB)).toHaveText("1");
    await addProduct(pageB, "Grilled Salmon");
    await expect(pageB.getByTestId("toasts")).toContainText("This cart was changed in another tab or device");
    await expect(cartCount(pageB)).toHaveText("3");

    // A is now the stale one.
    await addProduct(pageA, "Boston Cream Pie");
    await expect(pageA.getByTestId("toasts")).toContainText("This cart was changed in another tab or device");
    await addProduct(pageB, "Apple Cider Donuts");

    const expected = ["Apple Cider Donuts", "Boston Cream Pie", "Crispy Calamari", "Fish & Chips", "Grilled Salmon"];
    expect((await serverCart(pageA, request)).items.map((item) => item.name).sort()).toEqual(expected);
    await pageA.reload();
    await pageB.reload();
    expect(await lineNames(pageA)).toEqual(expected);
    expect(await lineNames(pageB)).toEqual(expected);
    await first.close();
    await second.close();
  });
});
