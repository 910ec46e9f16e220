import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  launchBrowser,
  type Product,
  screenshotPath,
  sharedProduct,
  staffPage,
  viewports,
} from "../support/e2e";

/**
 * The membership lifecycle pages of the back office: an admin creates a pay-in-full member at the
 * desk (who is emailed a link to finish joining), and schedules a price change for two members
 * after reading the email each will get.
 */
let product: Product;
let browser: Browser;

beforeAll(async () => {
  product = await sharedProduct();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const mailbox = async () =>
  (
    (await (await fetch(`${product.staffUrl}/api/dev/mail`)).json()) as {
      data: { to: string; subject: string }[];
    }
  ).data;

describe("membership lifecycle pages", () => {
  it("creates a pay-in-full member at the desk, who is emailed a link to finish joining", async () => {
    const page = await staffPage(browser, product, "admin@example.com");
    await page.goto(`${product.staffUrl}/members/pif`);
    await page.getByRole("heading", { name: "Pay in full" }).waitFor();
    const form = page.getByRole("form", { name: "Pay-in-full member" });
    await form.getByRole("button", { name: "Add member" }).click();
    expect(await form.getByText("Value is required").count()).toBeGreaterThanOrEqual(3);

    await form.getByLabel("Name").fill("Pat Payfull");
    await form.getByLabel("Email").fill("pat.payfull@example.net");
    await form.getByLabel("Mobile number").fill("021 555 0101");
    await form.getByRole("combobox", { name: "Membership" }).click();
    await page
      .getByRole("option", { name: /Summer Pass/ })
      .first()
      .click();
    await form.getByRole("combobox", { name: "Paid by" }).click();
    await page.getByRole("option", { name: "Cash" }).click();
    await form.getByRole("button", { name: "Add member" }).click();

    await page.getByText("Pat Payfull is a member").waitFor();
    const card = page.getByRole("region", { name: "Membership" });
    await card.getByText("Paid in full until").waitFor();
    await card.getByText("PIF").first().waitFor();
    await page.screenshot({ path: screenshotPath("members-pif-created"), fullPage: true });
    await expect
      .poll(async () =>
        (await mailbox()).some(
          (m) => m.to === "pat.payfull@example.net" && /^Finish joining/.test(m.subject),
        ),
      )
      .toBe(true);
  });

  it("previews the email each member will get, then schedules a price change for two members", async () => {
    const page = await staffPage(browser, product, "admin@example.com");
    await page.goto(`${product.staffUrl}/members/change-price`);
    await page.getByRole("heading", { name: "Change price" }).waitFor();
    await page.getByRole("combobox", { name: "Members on the price" }).click();
    await page.getByRole("option", { name: "Anytime Membership: $24.00 Weekly" }).click();

    const table = page.getByRole("table", { name: "Members on the price" });
    await table.getByRole("row").nth(2).waitFor();
    const rows = table.locator("tbody tr");
    const names: string[] = [];
    for (const i of [0, 1]) {
      const row = rows.nth(i);
      names.push((await row.locator("a").first().innerText()).trim());
      await row.getByRole("checkbox").check();
    }
    await page.getByText(/^2 of \d+ members picked$/).waitFor();

    await page.getByRole("combobox", { name: "New price" }).click();
    await page
      .getByRole("option", { name: /\$15\.00 Weekly/ })
      .first()
      .click();
    await page.getByRole("button", { name: "Preview emails" }).click();
    const preview = page.getByLabel("Email preview");
    await preview.getByText("2 emails will be sent").waitFor();
    for (const name of names) await preview.getByText(name, { exact: false }).first().waitFor();
    await preview
      .getByText(/\$15\.00/)
      .first()
      .waitFor();
    await page.screenshot({ path: screenshotPath("members-change-price-preview"), fullPage: true });

    await page.getByRole("button", { name: "Schedule price change" }).click();
    await page.getByText("Price change scheduled for 2 members; they have been emailed").waitFor();
    // Both now show as already changing, and cannot be picked again.
    await expect
      .poll(() => table.getByText("Change scheduled").count(), { timeout: 10_000 })
      .toBeGreaterThanOrEqual(2);
  });

  it("fits a phone: the pay-in-full form is one column without sideways scrolling", async () => {
    const page = await staffPage(browser, product, "admin@example.com", viewports.phone);
    await page.goto(`${product.staffUrl}/members/pif`);
    await page.getByRole("button", { name: "Add member" }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: screenshotPath("members-pif-phone"), fullPage: true });
  });
});
