import { expect, test, type Page } from "@playwright/test";
import { addProduct, cartCount, expectReceipt, HARBOR, openCart, openLocation, payWithTestCard, snap } from "./support";

const MERCHANT_SLUG = "harbor-kitchen";

function signInDialog(page: Page) {
  return page.getByRole("dialog", { name: "Sign in" });
}

/** The customer session the storefront keeps for the merchant (token and profile). */
async function storedSession(page: Page): Promise<{ token: string; customer: { customerEmail: string; customerName: string } } | null> {
  const text = await page.evaluate((key) => window.localStorage.getItem(key), `storefront.customer.${MERCHANT_SLUG}`);
  return text ? (JSON.parse(text) as { token: string; customer: { customerEmail: string; customerName: string } }) : null;
}

/** Reads the newest code sent to `email` from the development outbox page, as a demo user would. */
async function codeFromOutboxPage(page: Page, email: string): Promise<string> {
  const outbox = await page.context().newPage();
  await outbox.goto("/dev/outbox");
  await expect(outbox.getByRole("heading", { name: "Development outbox" })).toBeVisible();
  const message = outbox.getByRole("listitem").filter({ hasText: email }).first();
  const code = /code is (\d{6})/.exec(await message.innerText())?.[1];
  await outbox.close();
  if (!code) throw new Error(`no code for ${email} in the outbox`);
  return code;
}

test.describe("customer sign-in and account", () => {
  test("signs in with an e-mailed code, pays as the customer, and sees the order and its points in the account", async ({ page, request }, testInfo) => {
    const email = `ada.${Date.now()}@example.com`;
    await openLocation(page);

    // A guest cart started before signing in is carried over to the customer.
    await addProduct(page, "Harbor Burger", async (dialog) => {
      await dialog.getByRole("radio", { name: /^Medium rare/ }).check();
    });
    await expect(cartCount(page)).toHaveText("1");

    await page.getByTestId("sign-in").click();
    const dialog = signInDialog(page);
    await expect(dialog).toBeVisible();
    await dialog.getByLabel("E-mail address").fill(email);
    await dialog.getByRole("button", { name: "Send code" }).click();
    await expect(dialog.getByRole("status").filter({ hasText: `We sent a 6-digit code to ${email}` })).toBeVisible();
    const hint = dialog.getByTestId("outbox-hint");
    await expect(hint.getByRole("link", { name: "development outbox" })).toHaveAttribute("href", "/dev/outbox");
    const codeField = dialog.getByLabel("6-digit code");
    await expect(codeField).toBeFocused();

    const code = await codeFromOutboxPage(page, email);
    // The JSON view of the outbox agrees with the page.
    const json = (await (await request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as { messages: { text: string }[] };
    expect(json.messages[0]?.text).toContain(code);

    // A wrong code is refused with the attempts left, next to the field.
    const wrong = code === "000000" ? "111111" : "000000";
    await codeField.fill(wrong);
    await dialog.getByRole("button", { name: "Sign in" }).click();
    await expect(dialog.getByTestId("code-error")).toHaveText("That code is not correct. 4 attempts left.");
    await expect(codeField).toHaveAttribute("aria-invalid", "true");
    await snap(page, testInfo, "18-sign-in-wrong-code");

    await codeField.fill(code);
    await dialog.getByLabel(/Your name/).fill("Ada");
    await dialog.getByRole("button", { name: "Sign in" }).click();
    await expect(dialog).toBeHidden();
    const signedIn = page.getByTestId("signed-in");
    await expect(signedIn.getByRole("link", { name: "Ada" })).toBeVisible();
    const session = await storedSession(page);
    expect(session?.customer).toMatchObject({ customerEmail: email, customerName: "Ada" });
    expect(page.url()).not.toContain(session?.token ?? "-");

    // The guest cart's line now lives in a customer cart (no cart token: the bearer token is its credential).
    await expect(page.getByTestId("toasts")).toContainText("your cart now belongs to your account");
    await expect(cartCount(page)).toHaveText("1");
    const stored = JSON.parse((await page.evaluate((key) => window.localStorage.getItem(key), `storefront.cart.${HARBOR.locationId}`)) ?? "null") as { cartId: string; cartAccessToken: string | null };
    expect(stored.cartAccessToken).toBeNull();
    const cartResponse = await request.get(`/api/v1/storefront/locations/${HARBOR.locationId}/carts/${stored.cartId}`, { headers: { Authorization: `Bearer ${session?.token ?? ""}` } });
    expect(cartResponse.status()).toBe(200);
    expect(((await cartResponse.json()) as { items: { name: string }[] }).items.map((item) => item.name)).toEqual(["Harbor Burger"]);
    await snap(page, testInfo, "19-signed-in");

    await addProduct(page, "Fish & Chips");
    const drawer = await openCart(page);
    await payWithTestCard(drawer, "4242");
    const receipt = await expectReceipt(page, stored.cartId);
    await expect(receipt.getByTestId("receipt-payment")).toContainText("VISA ending 4242");
    const subTotal = (await receipt.getByTestId("receipt-subTotalWithoutDiscount").innerText()).trim();
    const total = (await receipt.getByTestId("receipt-total").innerText()).trim();
    const orderNumber = (await receipt.getByTestId("receipt-order-number").innerText()).trim();
    const points = Math.floor(Number(subTotal.replace(/[^0-9.]/g, "")));

    // The account: the order (with its receipt) and the points it earned.
    await page.goto(`/l/${HARBOR.slug}`);
    await page.getByTestId("signed-in").getByRole("link", { name: "Ada" }).click();
    await expect(page).toHaveURL(new RegExp(`/l/${HARBOR.slug}/account$`));
    await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
    await expect(page.getByTestId("account-email")).toHaveText(email);
    const orders = page.getByTestId("order-history-entry");
    await expect(orders).toHaveCount(1);
    await expect(orders.first()).toContainText("1 × Harbor Burger, 1 × Fish & Chips");
    // The same order number as on the receipt the customer saw.
    await expect(orders.first()).toContainText(`Order ${orderNumber}`);
    await expect(orders.first()).toContainText(total);
    await expect(page.getByTestId("loyalty-balance")).toHaveText(String(points));
    await expect(page.getByTestId("ledger").getByRole("listitem")).toHaveCount(1);
    await expect(page.getByTestId("ledger")).toContainText(`+${points} points for an order`);
    await snap(page, testInfo, "20-account");

    await orders.first().getByRole("link", { name: "View receipt" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Your receipt" })).toBeVisible();
    await expect(page.getByTestId("receipt-total")).toHaveText(total);

    // Signing out revokes the token on the server and forgets it here.
    await page.goto(`/l/${HARBOR.slug}/account`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByTestId("sign-in")).toBeVisible();
    await expect(page.getByTestId("signed-out")).toBeVisible();
    expect(await storedSession(page)).toBeNull();
    const refused = await request.get("/api/v1/storefront/customer", { headers: { Authorization: `Bearer ${session?.token ?? ""}` } });
    expect(refused.status()).toBe(401);
  });
});
