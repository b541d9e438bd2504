import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { addProduct, expectReceipt, locationDate, openCart, openLocation, payWithTestCard, productButton, productDialog, serverCart } from "./support";

/**
 * The storefront as a customer meets it, on a phone (390x844) and a laptop: the header fits, a
 * declined card brings the customer to the message, the product dialog shows the live price, and
 * axe finds no violation on the pages a customer goes through.
 */
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };

async function signInByApi(page: Page, email: string): Promise<void> {
  // The customer's session as the storefront keeps it (localStorage), signed in through the API.
  const login = await page.request.post("/api/v1/storefront/customer/auth/login", {
    headers: { "Idempotency-Key": `e2e-login-${Date.now()}-${Math.random().toString(36).slice(2)}` },
    data: { merchantSlug: "harbor-kitchen", identifierString: email },
  });
  const { methodId } = (await login.json()) as { methodId: string };
  const outbox = (await (await page.request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as { messages: { text: string }[] };
  const otp = /code is (\d{6})/.exec(outbox.messages[0]?.text ?? "")?.[1] ?? "";
  const verified = await page.request.post("/api/v1/storefront/customer/auth/verify-otp", {
    headers: { "Idempotency-Key": `e2e-verify-${Date.now()}-${Math.random().toString(36).slice(2)}` },
    data: { merchantSlug: "harbor-kitchen", identifierString: email, methodId, otp },
  });
  expect(verified.status()).toBe(200);
  const session = (await verified.json()) as { token: string; customer: unknown };
  await page.evaluate((value) => window.localStorage.setItem("storefront.customer.harbor-kitchen", value), JSON.stringify(session));
}

async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`), label).toEqual([]);
}

for (const [size, viewport] of [
  ["phone", PHONE],
  ["laptop", LAPTOP],
] as const) {
  test.describe(`on a ${size}`, () => {
    test.use({ viewport });

    test("the signed-in header fits: no sideways scroll, the cart button with its count and total in view", async ({ page }) => {
      await openLocation(page);
      await signInByApi(page, `header.${size}.${Date.now()}@example.com`);
      await page.reload();
      await openLocation(page);
      await addProduct(page, "Crispy Calamari");
      await expect(page.getByTestId("signed-in")).toBeVisible();
      const overflow = await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      const cart = await page.getByTestId("open-cart").boundingBox();
      expect(cart).not.toBeNull();
      expect((cart?.x ?? 0) + (cart?.width ?? 0)).toBeLessThanOrEqual(viewport.width);
      await expect(page.getByTestId("cart-count")).toBeInViewport();
      await expect(page.getByTestId("open-cart")).toContainText("$");
      // "Sign out" and the back link stay on one line each.
      const signOut = await page.getByRole("button", { name: "Sign out" }).boundingBox();
      expect(signOut?.height ?? 0).toBeLessThan(40);
    });

    test("a reload during checkout brings the customer back to the open cart", async ({ page }) => {
      await openLocation(page);
      await addProduct(page, "Crispy Calamari");
      const drawer = await openCart(page);
      await expect(drawer.getByTestId("pay-button")).toBeVisible();
      await page.reload();
      await expect(page.getByRole("dialog", { name: "Your order" })).toBeVisible();
      await expect(page.getByTestId("pay-button")).toBeVisible();
    });

    test("a declined card puts the message in view and focus on it", async ({ page }) => {
      await openLocation(page);
      await addProduct(page, "Grilled Salmon");
      const drawer = await openCart(page);
      await payWithTestCard(drawer, "0002");
      const failure = drawer.getByTestId("payment-failure");
      await expect(failure).toContainText("Your card was declined.");
      await expect(failure).toBeFocused();
      await expect(failure).toBeInViewport();
    });

    test("the product dialog's button shows the line's price as options and quantity change", async ({ page }) => {
      await openLocation(page);
      await productButton(page, "New England Clam Chowder").click();
      const dialog = productDialog(page);
      const add = dialog.getByRole("button", { name: /^Add to cart/ });
      const base = (await add.textContent())?.split(" · ")[1] ?? "";
      expect(base).toMatch(/^\$\d+\.\d{2}$/);
      await dialog.getByRole("radio", { name: /^Bowl/ }).check();
      await expect(add).not.toHaveText(`Add to cart · ${base}`);
      const withBowl = (await add.textContent())?.split(" · ")[1] ?? "";
      await dialog.getByRole("button", { name: /Increase quantity/ }).click();
      const cents = (money: string) => Math.round(Number(money.replace(/[^0-9.]/g, "")) * 100);
      await expect(add).toHaveText(`Add to cart · $${((2 * cents(withBowl)) / 100).toFixed(2)}`);
    });

    test("the confirmation shows what was ordered while the payment settles, then an order number and when it will be ready", async ({ page, request }) => {
      await openLocation(page);
      await addProduct(page, "Crispy Calamari");
      const drawer = await openCart(page);
      const cart = await serverCart(page, request);
      // Hold the order result until the waiting page has been looked at, so the test does not race the kitchen.
      let release = () => undefined as void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route("**/api/trpc/checkout.orderResult**", async (route) => {
        await released;
        await route.continue();
      });
      await payWithTestCard(drawer, "4242");
      await expect(page.getByTestId("order-heading")).toHaveText("Processing your order");
      const pending = page.getByTestId("pending-items");
      await expect(pending.getByTestId("pending-item")).toHaveText([/^1 × Crispy Calamari\s*\$\d+\.\d{2}$/]);
      await expect(pending).toContainText(String(cart.orderTotalWithServiceFeeFormatted));
      await expectNoAxeViolations(page, "order pending");
      release();

      const receipt = await expectReceipt(page, String(cart.id));
      const orderNumber = receipt.getByTestId("receipt-order-number");
      await expect(orderNumber).toHaveText(/^[0-9A-Z]{3}-[0-9A-Z]{3}$/);
      await expect(orderNumber).toBeInViewport();
      await expect(receipt.getByTestId("receipt-ready-at")).toHaveText(/^Ready for pickup around \d{1,2}:\d{2}\s?[AP]M( on \w{3}, \w{3} \d{1,2})?$/);
      await expect(receipt.getByTestId("receipt-line")).toHaveCount(1);
      await expectNoAxeViolations(page, "receipt");
    });

    test("a server failure reads as a customer message, with the request id kept for support", async ({ page }) => {
      await openLocation(page);
      await page.route("**/api/trpc/carts.addItem**", (route) =>
        route.fulfill({ status: 500, headers: { "content-type": "text/plain", "x-request-id": "req_e2e_support_reference" }, body: "Internal Server Error" }),
      );
      await productButton(page, "Crispy Calamari").click();
      const dialog = productDialog(page);
      await dialog.getByRole("button", { name: /^Add to cart/ }).click();
      const alert = dialog.getByRole("alert");
      await expect(alert).toContainText("Something went wrong on our side. Please try again");
      await expect(alert).toBeInViewport();
      const shown = await alert.innerText();
      expect(shown).not.toMatch(/req_|answered|\b500\b|code:|Reference:/);
      await alert.getByText("Support reference", { exact: true }).click();
      await expect(alert.getByTestId("support-reference")).toHaveText("req_e2e_support_reference");
    });

    test("the account page names the e-mail once when the customer has no name", async ({ page }) => {
      const email = `noname.${size}.${Date.now()}@example.com`;
      await openLocation(page);
      await signInByApi(page, email);
      await page.goto("/l/harbor-kitchen-downtown/account");
      await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
      await expect(page.getByTestId("account-email")).toHaveText(email);
      const text = await page.locator("main").innerText();
      expect(text.split(email).length - 1).toBe(1);
      await expectNoAxeViolations(page, "account");
    });

    test("choosing a later time sets it at once, and tip presets show what they come to", async ({ page, request }) => {
      await openLocation(page);
      await addProduct(page, "Fish & Chips");
      const drawer = await openCart(page);
      await drawer.getByRole("radio", { name: "Schedule for later" }).check();
      const day = drawer.getByRole("combobox", { name: "Day", exact: true });
      await expect(day).toBeEnabled();
      await day.selectOption(locationDate(1));
      await drawer.getByRole("combobox", { name: "Time", exact: true }).selectOption("18:30");
      await expect(drawer.getByTestId("order-time")).toContainText("at 6:30 PM");
      const scheduled = await serverCart(page, request);
      expect([scheduled.pickupType, scheduled.orderTime]).toEqual(["LATER", "18:30"]);

      const tips = drawer.getByRole("group", { name: "Tip for the team" });
      await expect(tips.getByRole("button", { name: /^15%/ })).toHaveText(/^15% · \$\d+\.\d{2}$/);
    });

    test("axe finds no violations on the menu, an open product, the cart and the sign-in dialog", async ({ page }) => {
      await openLocation(page);
      await expectNoAxeViolations(page, "menu");
      await productButton(page, "Crispy Calamari").click();
      await expectNoAxeViolations(page, "product dialog");
      await page.keyboard.press("Escape");
      await addProduct(page, "Crispy Calamari");
      await openCart(page);
      await expectNoAxeViolations(page, "cart");
      await page.keyboard.press("Escape");
      await page.getByTestId("sign-in").click();
      await expect(page.getByRole("dialog", { name: "Sign in" })).toBeVisible();
      await expectNoAxeViolations(page, "sign-in dialog");
    });
  });
}

test.describe("on a laptop, the added-to-cart notice", () => {
  test.use({ viewport: LAPTOP });
  test("stays for 12 seconds, and the open cart does not cover its dismiss button", async ({ page }) => {
    await page.clock.install();
    await openLocation(page);
    await addProduct(page, "Crispy Calamari");
    const toasts = page.getByTestId("toasts");
    await page.clock.runFor(7_000);
    await expect(toasts).toContainText("Crispy Calamari");
    await page.clock.runFor(5_500);
    await expect(toasts).not.toContainText("Crispy Calamari");

    await addProduct(page, "Crispy Calamari");
    await openCart(page);
    const dismiss = toasts.getByRole("button").first();
    await expect(dismiss).toBeInViewport();
    // A real click: Playwright refuses it if the drawer or its backdrop is on top of the button.
    await dismiss.click({ timeout: 5_000 });
    await expect(toasts).not.toContainText("Crispy Calamari");
    // The cart is still open, and a notice after it closes is back on the page.
    await expect(page.getByRole("dialog", { name: "Your order" })).toBeVisible();
    await page.keyboard.press("Escape");
    await addProduct(page, "Crispy Calamari");
    await expect(toasts).toBeVisible();
    await expect(toasts.getByRole("button").first()).toBeInViewport();
  });
});

test("the site has a favicon", async ({ request }) => {
  const icon = await request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toMatch(/icon/);
});

test("the location page's HTML already holds the restaurant, its menu and its title, before any script runs", async ({ request }) => {
  const html = await (await request.get("/l/harbor-kitchen-downtown")).text();
  expect(html).toMatch(/<title>Harbor Kitchen Downtown: order online[^<]*<\/title>/);
  expect(html).toContain("<h1");
  expect(html).toContain("Harbor Kitchen Downtown");
  expect(html).toContain("Crispy Calamari");
  expect(html).not.toContain("Loading the restaurant");
});
