import { expect, test } from "@playwright/test";
import { addProduct, cartCount, HARBOR, locationDate, openCart, openLocation, productButton, productDialog, serverCart, snap } from "./support";

test.describe("browsing the menu and adding items", () => {
  test("menu by category, sold-out items, and the home page link", async ({ page }, testInfo) => {
    await page.goto("/");
    await page.getByRole("link", { name: /Harbor Kitchen/ }).click();
    await expect(page).toHaveURL(new RegExp(`/l/${HARBOR.slug}$`));
    await expect(page.getByRole("heading", { level: 1, name: "Harbor Kitchen Downtown" })).toBeVisible();

    const menu = page.locator("#menu");
    await expect(menu.getByRole("heading", { level: 2, name: "All Day" })).toBeVisible();
    for (const category of ["Starters", "Burgers & Sandwiches", "Mains & Salads", "Drinks", "Desserts"]) {
      await expect(menu.getByRole("heading", { level: 3, name: category })).toBeVisible();
    }
    await expect(productButton(page, "Double Smash Burger")).toContainText("$14.50");

    // Sold out: shown, marked, and not something you can open.
    const oysters = page.getByRole("group", { name: "Oysters on the Half Shell, sold out" });
    await expect(oysters).toContainText("Sold out");
    await expect(page.getByRole("button", { name: /Oysters on the Half Shell/ })).toHaveCount(0);

    // The category jump list leads to the category.
    await page.getByRole("navigation", { name: "Menu categories" }).getByRole("link", { name: "Desserts" }).click();
    await expect(page).toHaveURL(/#cat_hk_desserts$/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await snap(page, testInfo, "01-menu");
  });

  test("required choices are enforced, options respect their limits, and the cart shows the server's prices", async ({ page, request }, testInfo) => {
    await openLocation(page);
    await expect(cartCount(page)).toHaveText("0");

    await productButton(page, "Double Smash Burger").click();
    const dialog = productDialog(page);
    await expect(dialog.getByRole("heading", { name: "Double Smash Burger" })).toBeVisible();
    await expect(dialog.getByRole("group", { name: /Side/ })).toContainText("Required · choose 1");
    await expect(dialog.getByRole("group", { name: /Extra toppings/ })).toContainText("Optional · choose up to 3");

    // Submitting without the required side: the dialog stays, says why, and focuses the group.
    await dialog.getByRole("button", { name: "Add to cart" }).click();
    await expect(dialog.getByText("Choose a side.")).toBeVisible();
    await expect(dialog.getByRole("radio", { name: /^Fries/ })).toBeFocused();
    await expect(dialog).toBeVisible();
    await snap(page, testInfo, "02-product-required-choice");
    expect(await page.evaluate(() => Object.keys(window.localStorage).filter((key) => key.startsWith("storefront.cart.")))).toEqual([]);

    await dialog.getByRole("radio", { name: /Sweet potato fries/ }).check();
    await expect(dialog.getByText("Choose a side.")).toBeHidden();

    // Up to 2 of one topping, 3 in all.
    await dialog.getByRole("button", { name: "Increase Applewood bacon" }).click();
    await dialog.getByRole("button", { name: "Increase Applewood bacon" }).click();
    await expect(dialog.getByRole("button", { name: "Increase Applewood bacon" })).toBeDisabled();
    await dialog.getByRole("button", { name: "Increase Extra cheese" }).click();
    await expect(dialog.getByRole("button", { name: "Increase Avocado" })).toBeDisabled();
    await dialog.getByRole("button", { name: "Increase quantity" }).click();
    await expect(dialog.getByRole("group", { name: "Quantity" })).toContainText("2");
    await snap(page, testInfo, "03-product-dialog");
    await dialog.getByRole("button", { name: "Add to cart" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("toasts")).toContainText("Added 2 × Double Smash Burger to your cart.");
    await expect(cartCount(page)).toHaveText("2");

    // An unavailable option is shown but cannot be picked.
    await addProduct(page, "New England Clam Chowder", async (chowder) => {
      await expect(chowder.getByRole("radio", { name: /Sourdough bread bowl/ })).toBeDisabled();
      await expect(chowder.getByText("Unavailable")).toBeVisible();
      await chowder.getByRole("radio", { name: /^Bowl/ }).check();
    });

    // Keyboard: open with Enter, close with Escape, focus returns to the product.
    const calamari = productButton(page, "Crispy Calamari");
    await calamari.focus();
    await page.keyboard.press("Enter");
    await expect(productDialog(page).getByRole("heading", { name: "Crispy Calamari" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(productDialog(page)).toBeHidden();
    await expect(calamari).toBeFocused();
    await addProduct(page, "Crispy Calamari");
    await expect(cartCount(page)).toHaveText("4");

    const drawer = await openCart(page);
    const lines = drawer.getByTestId("cart-line");
    await expect(lines).toHaveCount(3);
    const burgerLine = lines.filter({ hasText: "Double Smash Burger" });
    await expect(burgerLine).toContainText("Side: Sweet potato fries");
    await expect(burgerLine).toContainText("Extra toppings: Applewood bacon ×2");
    await expect(burgerLine).toContainText("Extra toppings: Extra cheese");

    // Quantity and remove.
    await drawer.getByRole("button", { name: "Increase quantity of Crispy Calamari" }).click();
    await expect(lines.filter({ hasText: "Crispy Calamari" }).getByRole("group", { name: "Quantity of Crispy Calamari" })).toContainText("2");
    await drawer.getByRole("button", { name: "Remove New England Clam Chowder" }).click();
    await expect(lines).toHaveCount(2);
    await expect(drawer.getByRole("status").filter({ hasText: "Updating your cart" })).toHaveCount(0);

    // Every amount on screen is the server's.
    const cart = await serverCart(page, request);
    expect(cart.items.map((item) => [item.name, item.quantity])).toEqual([
      ["Double Smash Burger", 2],
      ["Crispy Calamari", 2],
    ]);
    const serverItems = cart.items as unknown as { name: string; totalFormatted: string }[];
    for (const item of serverItems) await expect(lines.filter({ hasText: item.name })).toContainText(item.totalFormatted);
    await expect(drawer.getByTestId("total-items")).toHaveText(String(cart.subTotalWithoutDiscountFormatted));
    await expect(drawer.getByTestId("total-tax")).toHaveText(String(cart.taxTotalFormatted));
    await expect(drawer.getByTestId("total-order")).toHaveText(String(cart.orderTotalWithServiceFeeFormatted));
    await expect(page.getByTestId("open-cart")).toContainText(String(cart.orderTotalWithServiceFeeFormatted));
    await snap(page, testInfo, "04-cart");
  });

  test("the server's validation errors are shown next to the choice they concern", async ({ page }) => {
    // The menu says the bread bowl is back (as a stale page would); the server knows it is not.
    await page.route("**/api/trpc/catalog.menus**", async (route) => {
      const response = await route.fetch();
      const body = await response.text();
      await route.fulfill({ response, body: body.replace(/("id":"opt_hk_clam_chowder_bread_bowl"[^}]*"available":)false/, "$1true") });
    });
    await openLocation(page);
    // The page arrives with the menu rendered on the server; another time makes the browser read it (stale, above).
    const moment = page.getByRole("group", { name: "Show the menu for" });
    await moment.getByRole("radio", { name: "Another time" }).check();
    await moment.getByLabel("Date", { exact: true }).fill(locationDate(1));
    await moment.getByLabel("Time", { exact: true }).fill("15:00");
    await moment.getByRole("button", { name: "Show menu" }).click();
    await expect(page.getByTestId("menu-moment")).toContainText("at 3:00 PM");

    await productButton(page, "New England Clam Chowder").click();
    const dialog = productDialog(page);
    await dialog.getByRole("radio", { name: /Sourdough bread bowl/ }).check();
    await dialog.getByRole("button", { name: "Add to cart" }).click();

    const alert = dialog.getByRole("alert");
    await expect(alert).toContainText("Could not add this item.");
    await expect(alert).toContainText("Sourdough bread bowl is not available");
    // The request id is there for support, not as the message.
    await expect(alert).not.toContainText("Reference:");
    await expect(alert.getByTestId("support-reference")).toHaveText(/^req_\S{8,}$/);
    await expect(dialog.getByRole("group", { name: /Size/ })).toContainText("option is not available");
    await expect(dialog).toBeVisible();

    // Fixing the choice clears the error and the item goes in.
    await dialog.getByRole("radio", { name: /^Cup/ }).check();
    await expect(dialog.getByRole("alert")).toHaveCount(0);
    await dialog.getByRole("button", { name: "Add to cart" }).click();
    await expect(dialog).toBeHidden();
    await expect(cartCount(page)).toHaveText("1");
  });
});
