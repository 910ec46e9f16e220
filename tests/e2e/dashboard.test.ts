import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, type Product, screenshotPath, sharedProduct, staffPage } from "../support/e2e";
import { seedIntoProduct } from "../support/payments";

/**
 * The dashboard reads the rollups: marking a bank transfer received (a payment settling) moves
 * the month's revenue on the dashboard by its amount.
 */
let product: Product;
let browser: Browser;
let gym: string;

beforeAll(async () => {
  product = await sharedProduct();
  browser = await launchBrowser();
  gym = (await seedIntoProduct(product.dynamoPort, 2, "dash", "Harbour Fitness Dashboard")).gymId!;
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const cents = (text: string) => Math.round(Number(text.replace(/[^0-9.]/g, "")) * 100);

describe("dashboard", () => {
  it("a payment settling moves this month's revenue on the dashboard", async () => {
    const page = await staffPage(browser, product, "admin@example.com");
    await page.goto(`${product.staffUrl}/dashboard?gym=${gym}`);
    const revenue = page.getByTestId("stat-Revenue this month");
    await revenue.waitFor();
    const before = cents(await revenue.innerText());
    // The card member started today and the pay-in-full member joined today; the bank member starts tomorrow.
    expect(await page.getByTestId("stat-Active members").innerText()).toBe("2");
    await page.getByLabel("Revenue by week").waitFor();
    // Members by state: paused and not yet started beside active (read from the rollups).
    const states = page.getByLabel("Members by state");
    for (const label of ["Active", "Paused now", "Not started yet"])
      await states.getByText(label, { exact: true }).waitFor();
    await page.screenshot({ path: screenshotPath("dashboard-before"), fullPage: true });

    await page.goto(`${product.staffUrl}/payments?gym_id=${gym}`);
    const transfer = page
      .getByRole("table", { name: "Payments" })
      .getByRole("row")
      .filter({ hasText: "dash pif transfer" });
    await transfer.getByRole("button", { name: "Mark received" }).click();
    const dialog = page.getByRole("dialog", { name: "Mark payment received?" });
    await dialog.getByRole("button", { name: "Mark received" }).click();
    await transfer.locator('[data-status="sent"]').waitFor();

    await page.goto(`${product.staffUrl}/dashboard?gym=${gym}`);
    await expect
      .poll(async () => cents(await revenue.innerText()), { timeout: 10_000 })
      .toBe(before + 29_900);
    await page.screenshot({ path: screenshotPath("dashboard-after"), fullPage: true });
  });
});
