import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, type Product, screenshotPath, sharedProduct, staffPage } from "../support/e2e";

/**
 * Visits in the browser: on /visits (local), the simulated Kisi sends a door unlock for the demo
 * member at Ponsonby's front door; the visit is listed, and the member's page counts it in their
 * weekly visits.
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

describe("visits", () => {
  it("a simulated door unlock shows on /visits and in the member's weekly visits; the member is active on /active-user-debugging", async () => {
    const page = await staffPage(browser, product, "admin@example.com");
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    const headers = { "X-Requested-With": "XMLHttpRequest" };
    const found = await page.request.post(`${product.staffUrl}/api/search`, {
      headers,
      data: { query: "member@example.com" },
    });
    const member = (await found.json()).data[0] as { id: string; name: string };
    const weekly = async () => {
      const res = await page.request.get(
        `${product.staffUrl}/api/members/${member.id}/weekly-visits?weeks=12`,
      );
      return ((await res.json()).data as { visits: number }[]).reduce((sum, w) => sum + w.visits, 0);
    };
    const before = await weekly();

    await page.goto(`${product.staffUrl}/visits`);
    await page
      .getByRole("heading", { name: "Visits", level: 1 })
      .waitFor()
      .catch(async (error) => {
        await page.screenshot({ path: screenshotPath("visits-failed"), fullPage: true });
        throw error;
      });
    const unlock = page.getByLabel("Simulated door unlock");
    await unlock.getByLabel("Member", { exact: true }).fill(member.name.split(" ")[0]);
    await page.getByRole("option", { name: new RegExp(member.name, "i") }).click();
    await unlock.getByLabel("Door", { exact: true }).click();
    await page.getByRole("option", { name: /Front door \(tracks visits\)/ }).click();
    await unlock.getByRole("button", { name: "Unlock" }).click();
    await page.getByText("Kisi webhook accepted.").waitFor();
    // The newest visit is first: the member at the front door, just now.
    const firstRow = page.getByRole("table").getByRole("row").nth(1);
    await firstRow.getByText(new RegExp(member.name, "i")).waitFor();
    await firstRow.getByText("Front door").waitFor();
    await page.screenshot({ path: screenshotPath("visits"), fullPage: true });
    expect(await weekly()).toBe(before + 1);

    await page.goto(`${product.staffUrl}/members/${member.id}`);
    const visits = page.getByRole("region", { name: "Weekly visits" });
    await visits.getByText(`${before + 1} in 12 weeks`).waitFor();
    await page.getByRole("region", { name: "Door access" }).getByText("Door opens").waitFor();
    await page.screenshot({ path: screenshotPath("member-visits"), fullPage: true });

    // Organisation admins: who is active by the door rule, and any mismatch with a re-sync.
    await page.goto(`${product.staffUrl}/active-user-debugging`);
    // A page of members at a time: follow "Next members" until the member shows.
    const active = page.getByRole("region", { name: "Active members" });
    const link = active.getByRole("link", { name: new RegExp(member.name, "i") });
    await page.getByRole("region", { name: "Mismatches" }).waitFor();
    for (let n = 0; n < 40 && !(await link.isVisible()); n++) {
      const next = page.getByRole("button", { name: "Next members" });
      if (await next.isDisabled()) break;
      const heading = await page.getByText(/^Page \d+:/).textContent();
      await next.click();
      await page
        .getByText(/^Page \d+:/)
        .filter({ hasNotText: heading ?? "" })
        .waitFor();
    }
    await link.waitFor();
    await page.screenshot({ path: screenshotPath("active-user-debugging"), fullPage: true });
    expect(errors).toEqual([]);
  });
});
