import { expect, test } from "@playwright/test";
import { addProduct, closeCart, locationDate, openCart, openLocation, serverCart, snap } from "./support";

test.describe("ordering for later", () => {
  test("the menu for a chosen time, and scheduling the order at a bookable later time", async ({ page, request }, testInfo) => {
    await openLocation(page);
    const menu = page.locator("#menu");
    const tomorrow = locationDate(1);

    // Breakfast is served 07:00-11:30 at the location: it shows for tomorrow 08:00 and not at 15:00.
    const moment = page.getByRole("group", { name: "Show the menu for" });
    await moment.getByRole("radio", { name: "Another time" }).check();
    await moment.getByLabel("Date", { exact: true }).fill(tomorrow);
    await moment.getByLabel("Time", { exact: true }).fill("08:00");
    await moment.getByRole("button", { name: "Show menu" }).click();
    await expect(page.getByTestId("menu-moment")).toContainText("at 8:00 AM");
    await expect(menu.getByRole("heading", { level: 2, name: "Breakfast" })).toBeVisible();
    await expect(menu.getByRole("button", { name: /^Blueberry Pancakes/ })).toBeVisible();
    await expect(menu.getByRole("heading", { level: 2, name: "All Day" })).toBeVisible();
    await snap(page, testInfo, "05-menu-for-breakfast-time");

    await moment.getByLabel("Time", { exact: true }).fill("15:00");
    await moment.getByRole("button", { name: "Show menu" }).click();
    await expect(page.getByTestId("menu-moment")).toContainText("at 3:00 PM");
    await expect(menu.getByRole("heading", { level: 2, name: "Breakfast" })).toHaveCount(0);

    await moment.getByRole("radio", { name: "Now" }).check();
    await expect(page.getByTestId("menu-moment")).toContainText("Served now");

    await addProduct(page, "Fish & Chips");
    const drawer = await openCart(page);
    await expect(drawer.getByTestId("order-time")).toContainText("Takeout: As soon as possible");

    // Later: the day and time lists come from the time-intervals procedure.
    await drawer.getByRole("radio", { name: "Schedule for later" }).check();
    const day = drawer.getByRole("combobox", { name: "Day", exact: true });
    await expect(day).toBeEnabled();
    await day.selectOption(tomorrow);
    const time = drawer.getByRole("combobox", { name: "Time", exact: true });
    await expect(time.locator("option", { hasText: "6:30 PM" })).toHaveCount(1);
    // Choosing a time sets it: nothing is left unsaved before paying.
    await time.selectOption("18:30");
    await expect(drawer.getByTestId("order-time")).toContainText("at 6:30 PM");
    await expect(drawer.getByText("Saved.")).toBeVisible();
    await snap(page, testInfo, "06-cart-scheduled");

    const scheduled = await serverCart(page, request);
    expect([scheduled.pickupType, scheduled.orderDate, scheduled.orderTime]).toEqual(["LATER", tomorrow, "18:30"]);

    // The page now shows the menu served at the scheduled time.
    await closeCart(page);
    await expect(page.getByTestId("menu-moment")).toContainText("at 6:30 PM");

    // And back to as soon as possible.
    await openCart(page);
    await drawer.getByRole("radio", { name: /As soon as possible/ }).check();
    await expect(drawer.getByTestId("order-time")).toContainText("Takeout: As soon as possible");
    const asap = await serverCart(page, request);
    expect([asap.pickupType, asap.orderDate, asap.orderTime]).toEqual(["ASAP", "", ""]);
  });
});
