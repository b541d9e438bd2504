import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, type APIRequestContext, type Locator, type Page, type TestInfo } from "@playwright/test";

/** Helpers shared by the storefront's browser tests. */
export const HARBOR = { slug: "harbor-kitchen-downtown", locationId: "loc_harbor_kitchen_downtown", timeZone: "America/New_York" };

const SCREENSHOT_DIR = path.join("test-results", "screenshots");

/** Saves a screenshot under test-results/screenshots/ and attaches it to the test's report. */
export async function snap(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

export async function openLocation(page: Page): Promise<void> {
  await page.goto(`/l/${HARBOR.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: "Harbor Kitchen Downtown" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Crispy Calamari/ })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Loading menu" })).toHaveCount(0);
}

export function productButton(page: Page, name: string): Locator {
  return page.getByRole("button", { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) });
}

export function productDialog(page: Page): Locator {
  return page.getByRole("dialog").filter({ has: page.locator("#product-dialog-title") });
}

export function cartDrawer(page: Page): Locator {
  return page.getByRole("dialog", { name: "Your order" });
}

/** Opens a product, lets `choose` make its selections, adds it and waits for the confirmation. */
export async function addProduct(page: Page, name: string, choose?: (dialog: Locator) => Promise<void>): Promise<void> {
  await productButton(page, name).click();
  const dialog = productDialog(page);
  await expect(dialog.getByRole("heading", { name })).toBeVisible();
  if (choose) await choose(dialog);
  await dialog.getByRole("button", { name: "Add to cart" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("toasts")).toContainText(`× ${name} to your cart`);
}

/** Opens the cart drawer once it shows the cart (after a reload the cart may still be loading). */
export async function openCart(page: Page): Promise<Locator> {
  await page.getByTestId("open-cart").click();
  const drawer = cartDrawer(page);
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole("status").filter({ hasText: /Updating your cart|Loading your cart/ })).toHaveCount(0);
  return drawer;
}

export async function closeCart(page: Page): Promise<void> {
  await cartDrawer(page).getByRole("button", { name: "Close cart" }).click();
  await expect(cartDrawer(page)).toBeHidden();
}

export function cartCount(page: Page): Locator {
  return page.getByTestId("cart-count");
}

export type StoredCart = { cartId: string; cartAccessToken: string; revision: number };

/** The cart handle the storefront keeps in localStorage for the location. */
export async function storedCart(page: Page): Promise<StoredCart> {
  const text = await page.evaluate((key) => window.localStorage.getItem(key), `storefront.cart.${HARBOR.locationId}`);
  if (!text) throw new Error("the storefront stored no cart");
  return JSON.parse(text) as StoredCart;
}

/** The server's copy of the cart, read over REST with the same capability the page holds. */
export async function serverCart(page: Page, request: APIRequestContext): Promise<Record<string, unknown> & { items: { name: string; quantity: number }[] }> {
  const { cartId, cartAccessToken } = await storedCart(page);
  const response = await request.get(`/api/v1/storefront/locations/${HARBOR.locationId}/carts/${cartId}`, { headers: { "X-Cart-Token": cartAccessToken } });
  expect(response.status()).toBe(200);
  return (await response.json()) as Record<string, unknown> & { items: { name: string; quantity: number }[] };
}

/** Today's calendar date at the location, plus `days`. */
export function locationDate(days = 0): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: HARBOR.timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
  const [year, month, day] = today.split("-").map(Number);
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, (day ?? 1) + days)).toISOString().slice(0, 10);
}

/** Changes the demo catalog mid-test through the e2e-only route (E2E_ADMIN_ROUTES, set by playwright.config.ts). */
export async function publishCatalog(request: APIRequestContext, changes: Record<string, unknown>[]): Promise<void> {
  const response = await request.post("/api/e2e/publish", { data: { locationId: HARBOR.locationId, changes } });
  expect(response.status(), await response.text()).toBe(200);
}

/** Picks a test card in the cart drawer and presses Pay. */
export async function payWithTestCard(drawer: Locator, last4: "4242" | "0002" | "3184"): Promise<void> {
  await drawer.getByRole("radio", { name: new RegExp(`ending ${last4}`) }).check();
  await drawer.getByTestId("pay-button").click();
}

/** Waits for the order status page to show the receipt of the cart that was paid. */
export async function expectReceipt(page: Page, cartId: string): Promise<Locator> {
  await expect(page).toHaveURL(new RegExp(`/l/${HARBOR.slug}/order/${cartId}$`));
  await expect(page.getByTestId("order-heading")).toHaveText("Thank you! Your order is confirmed", { timeout: 15_000 });
  const receipt = page.getByTestId("receipt");
  await expect(receipt).toBeVisible();
  return receipt;
}
