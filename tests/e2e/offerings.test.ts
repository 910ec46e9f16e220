import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshotPath, staffPage, useProductAndBrowser } from "../support/e2e";

const e2e = useProductAndBrowser();

/**
 * An organisation admin creates a Limited Hours offering with hours and two prices, meets a
 * validation message on the way, archives and restores a price, and computes a pro-rata first
 * payment for the new price.
 */

async function choose(
  page: Page,
  scope: ReturnType<Page["getByRole"]> | Page,
  label: string,
  option: string,
) {
  await scope.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

async function addPrice(page: Page, amount: string, frequency: string) {
  await page.getByRole("button", { name: "Add price" }).click();
  const dialog = page.getByRole("dialog", { name: "Add price" });
  await dialog.getByRole("textbox", { name: "Amount", exact: true }).fill(amount);
  await choose(page, dialog, "Billing frequency", frequency);
  await dialog.getByRole("button", { name: "Add price" }).click();
  await dialog.waitFor({ state: "hidden" });
}

describe("offerings", () => {
  it("an admin creates an offering with hours and two prices, archives and restores a price, and computes a pro-rata", async () => {
    const page = await staffPage(e2e.browser, e2e.product, "admin@example.com");

    // The demo offerings are listed with their prices.
    await page.goto(`${e2e.product.staffUrl}/offerings`);
    const list = page.getByRole("table", { name: "Offerings" });
    await list.getByRole("link", { name: "Anytime Membership" }).waitFor();
    await list.getByText("$24.00 Weekly").first().waitFor();

    await page.getByRole("link", { name: "Create offering" }).click();
    await page.waitForURL(/\/offerings\/create$/);
    const form = page.getByRole("form", { name: "Offering" });

    // Submitting the empty form shows the spec's message on the name and lands on it.
    await form.getByRole("button", { name: "Create offering" }).click();
    await form.getByText("Value is required").first().waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-invalid")))
      .toBe("true");
    await page.screenshot({ path: screenshotPath("offerings-create-errors") });

    await form.getByRole("textbox", { name: "Name" }).fill("Dawn Patrol");
    await form.getByRole("textbox", { name: "Description" }).fill("Early mornings before work.");
    await choose(page, form, "Type", "Limited Hours");
    // Seven empty day rows, Monday to Sunday; fill two days, leave the rest closed.
    const rows = form.getByRole("group", { name: /^Hours row/ });
    await expect.poll(() => rows.count()).toBe(7);
    await rows.nth(0).getByLabel("Opens").fill("05:30");
    await rows.nth(0).getByLabel("Closes").fill("09:00");
    await rows.nth(1).getByLabel("Opens").fill("05:30");
    await rows.nth(1).getByLabel("Closes").fill("09:00");
    await form.getByRole("checkbox", { name: /Hours mandated/ }).check();
    await page.screenshot({ path: screenshotPath("offerings-create-filled"), fullPage: true });
    await form.getByRole("button", { name: "Create offering" }).click();

    await page.waitForURL(/\/offerings\/[0-9A-Z]{26}$/);
    await page.getByRole("heading", { level: 1, name: "Dawn Patrol" }).waitFor();
    const hours = page.getByRole("table", { name: "Hours" });
    await hours.getByRole("cell", { name: "Monday" }).waitFor();
    expect(await hours.getByRole("cell", { name: "5:30 am" }).count()).toBe(2);
    expect(await hours.getByRole("cell", { name: "Wednesday" }).count()).toBe(0);

    await addPrice(page, "19.50", "Weekly");
    await addPrice(page, "70", "Monthly");
    const prices = page.getByRole("table", { name: "Prices" });
    await prices.getByText("$19.50", { exact: true }).waitFor();
    await prices.getByText("$70.00", { exact: true }).waitFor();
    await page.getByText("Weekly, Monthly").waitFor();

    // Archive the weekly price, then restore it.
    await prices.getByRole("button", { name: "Actions for $19.50 Weekly" }).click();
    await page.getByRole("menuitem", { name: "Archive" }).click();
    const confirm = page.getByRole("dialog", { name: "Archive price" });
    await confirm.getByRole("button", { name: "Archive" }).click();
    await prices.getByText("Archived", { exact: true }).waitFor();
    await page.screenshot({ path: screenshotPath("offerings-price-archived"), fullPage: true });

    await prices.getByRole("button", { name: "Actions for $19.50 Weekly" }).click();
    await page.getByRole("menuitem", { name: "Restore" }).click();
    await page.getByText("$19.50 Weekly restored").waitFor();
    await expect.poll(() => prices.getByText("Archived", { exact: true }).count()).toBe(0);

    // The pro-rata calculator: $19.50 weekly, starting 3 days before the billing date.
    await page.goto(`${e2e.product.staffUrl}/calculate-pro-rata`);
    const calculator = page.getByRole("form", { name: "Pro-rata" });
    await choose(page, calculator, "Price", "$19.50 Weekly");
    await calculator.getByRole("textbox", { name: "Start date" }).fill("02/06/2025");
    await calculator.getByRole("textbox", { name: "Billing date" }).fill("05/06/2025");
    await calculator.getByRole("textbox", { name: "Billing date" }).press("Escape");
    await calculator.getByRole("button", { name: "Calculate" }).click();
    const breakdown = page.getByRole("region", { name: "First payment" });
    await breakdown.getByText("Pro-rata: 3 of 7 days", { exact: false }).waitFor();
    // $19.50 × 3/7 = 835.71¢ → $8.36, no joining fee.
    expect(await breakdown.getByTestId("first-payment-total").textContent()).toBe("$8.36");
    await breakdown.getByText("Then $19.50 weekly from 5 June 2025.").waitFor();
    await page.screenshot({ path: screenshotPath("offerings-pro-rata"), fullPage: true });

    // A billing date a full week after the start is refused, with the message on its field.
    await calculator.getByRole("textbox", { name: "Billing date" }).fill("09/06/2025");
    await calculator.getByRole("textbox", { name: "Billing date" }).press("Escape");
    await calculator.getByRole("button", { name: "Calculate" }).click();
    await calculator.getByText(/The billing date must be on or before 8\/06\/2025/).waitFor();
    await page.context().close();
  });
});
