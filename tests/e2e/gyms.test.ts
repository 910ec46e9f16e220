import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { demoLogoPng } from "../../packages/functions/src/local/seed/gyms";
import { screenshotPath, staffPage, useProductAndBrowser } from "../support/e2e";

// Its own product: it renames a demo gym and changes the organisation's settings, which other files name.
const e2e = useProductAndBrowser({}, { own: true });

/**
 * An organisation admin edits a gym (name, destination account with a mismatched then matching
 * repeat entry, logo), connects Stripe through the simulated consent page, links a Kisi place
 * and marks a door as tracking visits, and changes organisation settings. A trainer can reach
 * none of these pages or calls.
 */

async function choose(page: Page, scope: ReturnType<Page["getByRole"]>, label: string, option: string) {
  await scope.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

async function gymIds(page: Page) {
  const answer = await page.context().request.get(`${e2e.product.staffUrl}/api/gyms`);
  const gyms = ((await answer.json()) as { data: { id: string; name: string }[] }).data;
  const id = (name: string) => gyms.find((gym) => gym.name.startsWith(name))!.id;
  return { ponsonby: id("Harbour Fitness Ponsonby"), newmarket: id("Harbour Fitness Newmarket") };
}

describe("gyms and organisation settings", () => {
  it("an admin sets up Newmarket: details, destination account, logo, Stripe, doors; and changes organisation settings", async () => {
    const page = await staffPage(e2e.browser, e2e.product, "admin@example.com");

    // The list shows both gyms with their counts and the admin's role.
    await page.goto(`${e2e.product.staffUrl}/gyms`);
    const list = page.getByRole("table", { name: "Gyms" });
    await list.getByRole("link", { name: "Harbour Fitness Ponsonby" }).waitFor();
    await list.getByRole("link", { name: "Harbour Fitness Newmarket" }).click();
    await page.getByRole("heading", { level: 1, name: "Harbour Fitness Newmarket" }).waitFor();
    await page.getByText("Not connected").waitFor();
    await page.getByRole("link", { name: "Edit gym" }).click();
    await page.waitForURL(/\/gyms\/[0-9A-Z]{26}\/edit$/);

    // Details: the name is required (trimmed), then saved.
    const details = page.getByRole("form", { name: "Gym details" });
    await details.getByRole("textbox", { name: "Name" }).fill("   ");
    await details.getByRole("button", { name: "Save details" }).click();
    await details.getByText("Value is required").waitFor();
    await details.getByRole("textbox", { name: "Name" }).fill("Harbour Fitness Newmarket Central");
    await details.getByRole("button", { name: "Save details" }).click();
    await page.getByText("Gym details saved").waitFor();
    await page.getByRole("heading", { level: 1, name: "Edit Harbour Fitness Newmarket Central" }).waitFor();

    // Destination account: a mismatched repeat entry is refused, a matching one saved and masked.
    const account = page.getByRole("form", { name: "Destination account" });
    await account.getByRole("textbox", { name: "Account name" }).fill("Harbour Fitness Newmarket Ltd");
    await account
      .getByRole("textbox", { name: "Bank account number", exact: true })
      .fill("12-3140-0171323-50");
    await account.getByRole("textbox", { name: "Repeat bank account number" }).fill("12-3140-0171323-51");
    // One click on Save shows the message on the repeat entry and moves focus there.
    await account.getByRole("button", { name: "Save account" }).click();
    await account.getByText("The value must be equal to the other value").waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.outerHTML ?? "none"))
      .toContain('aria-invalid="true"');
    await page.screenshot({ path: screenshotPath("gym-edit-account-mismatch") });
    await account.getByRole("textbox", { name: "Repeat bank account number" }).fill("12-3140-0171323-50");
    await account.getByRole("button", { name: "Save account" }).click();
    await page.getByText("Destination account saved").waitFor();
    await account.getByText("••-••••-•••1323-50").waitFor();

    // Logo: dropped in, uploaded, previewed.
    await page
      .locator("#logo input[type=file]")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: demoLogoPng() });
    await page.getByText("Logo uploaded").waitFor();
    const logo = page.getByRole("img", { name: "Harbour Fitness Newmarket Central logo" });
    await expect.poll(async () => (await logo.getAttribute("src")) ?? "").toMatch(/^\/api\/files\/logos\//);

    // Stripe: the simulated consent page, back through /stripe/callback.
    const cards = page.getByRole("region", { name: "Card payments" });
    await cards.getByText("Not connected").waitFor();
    await cards.getByRole("button", { name: "Connect Stripe" }).click();
    await page.waitForURL(/\/api\/dev\/stripe\/authorize\?/);
    await page.getByText("Connect a test Stripe account").waitFor();
    await page.screenshot({ path: screenshotPath("stripe-simulated-consent") });
    await page.getByRole("link", { name: "Connect test account" }).click();
    await page.waitForURL(/\/stripe\/callback\?/);
    await page.getByText("Stripe connected").waitFor();
    await page.waitForURL(/\/gyms\/[0-9A-Z]{26}\/edit/);
    await page
      .getByRole("region", { name: "Card payments" })
      .getByText("Connected", { exact: true })
      .waitFor();

    // Doors: link the Newmarket Kisi place and mark its main entrance as tracking visits.
    const doors = page.getByRole("region", { name: "Place and doors" });
    await choose(page, doors, "Kisi place", "Newmarket building");
    const table = doors.getByRole("table", { name: "Doors" });
    await table.getByText("Main entrance").waitFor();
    await table.getByRole("switch", { name: "Main entrance tracks visits" }).check({ force: true });
    await doors.getByRole("button", { name: "Save place and doors" }).click();
    await page.getByText("Doors saved").waitFor();
    // The visit-tracking switch saves as it is flipped.
    const visits = page.getByRole("region", { name: "Visit tracking" });
    await visits.getByRole("switch").click({ force: true });
    await expect.poll(() => visits.getByRole("switch").isChecked()).toBe(true);
    await page.screenshot({ path: screenshotPath("gym-edit-done"), fullPage: true });

    const { newmarket } = await gymIds(page);
    const saved = (
      await (await page.context().request.get(`${e2e.product.staffUrl}/api/gyms/${newmarket}`)).json()
    ).data;
    expect(saved).toMatchObject({
      name: "Harbour Fitness Newmarket Central",
      has_payment_account: true,
      place: { name: "Newmarket building" },
      destination_account: { bank_account_number: "••-••••-•••1323-50" },
    });
    expect(
      saved.doors.find((d: { integration: { name: string } }) => d.integration.name === "Main entrance")
        .integration.tracks_visits,
    ).toBe(true);
    await expect
      .poll(
        async () =>
          (await (await page.context().request.get(`${e2e.product.staffUrl}/api/gyms/${newmarket}`)).json())
            .data.tracks_visits,
      )
      .toBe(true);

    // Organisation settings: both grace fields required; a new grace period and frequencies saved.
    await page.goto(`${e2e.product.staffUrl}/organisation/settings`);
    const grace = page.getByRole("form", { name: "Failed-payment grace period" });
    await grace.getByRole("textbox", { name: "Failed-payment grace period" }).fill("");
    await grace.getByRole("button", { name: "Save" }).click();
    await grace.getByText("Value is required").waitFor();
    await grace.getByRole("textbox", { name: "Failed-payment grace period" }).fill("3");
    await choose(page, grace, "Unit", "Weeks");
    await grace.getByRole("button", { name: "Save" }).click();
    await page.getByText("Grace period saved").waitFor();
    const frequencies = page.getByRole("form", { name: "Price frequencies" });
    await frequencies.getByRole("checkbox", { name: "Fortnightly" }).uncheck();
    await frequencies.getByRole("button", { name: "Save" }).click();
    await page.getByText("Price frequencies saved").waitFor();
    await page.screenshot({ path: screenshotPath("organisation-settings"), fullPage: true });

    await page.reload();
    await expect
      .poll(() =>
        page
          .getByRole("form", { name: "Failed-payment grace period" })
          .getByRole("textbox", { name: "Failed-payment grace period" })
          .inputValue(),
      )
      .toBe("3");
    expect(
      await page
        .getByRole("form", { name: "Price frequencies" })
        .getByRole("checkbox", { name: "Fortnightly" })
        .isChecked(),
    ).toBe(false);

    // The webhook log shows the demo calls.
    await page.goto(`${e2e.product.staffUrl}/webhook-calls`);
    await page.getByRole("table", { name: "Webhook calls" }).getByText("account.updated").waitFor();
    await page.context().close();
  });

  it("a trainer cannot reach the gym or organisation settings pages or calls", async () => {
    const admin = await staffPage(e2e.browser, e2e.product, "admin@example.com");
    const { ponsonby } = await gymIds(admin);
    const organisationId = (
      await (await admin.context().request.get(`${e2e.product.staffUrl}/api/me`)).json()
    ).data.current_organisation.id;
    await admin.context().close();

    const page = await staffPage(e2e.browser, e2e.product, "trainer@example.com");
    for (const path of ["/gyms", `/gyms/${ponsonby}/edit`, "/organisation/settings", "/webhook-calls"]) {
      await page.goto(`${e2e.product.staffUrl}${path}`);
      await page.waitForURL(/\/dashboard$/);
    }
    const headers = { "X-Requested-With": "XMLHttpRequest" };
    const request = page.context().request;
    expect((await request.get(`${e2e.product.staffUrl}/api/gyms/${ponsonby}`)).status()).toBe(403);
    expect(
      (
        await request.put(`${e2e.product.staffUrl}/api/gyms/${ponsonby}`, { headers, data: { name: "Mine" } })
      ).status(),
    ).toBe(403);
    expect(
      (
        await request.post(`${e2e.product.staffUrl}/api/gyms/${ponsonby}/stripe/redirect`, { headers })
      ).status(),
    ).toBe(403);
    expect(
      (
        await request.put(`${e2e.product.staffUrl}/api/organisations/${organisationId}/grace-period`, {
          headers,
          data: { failed_payment_grace_period: 1, failed_payment_grace_period_unit: "days" },
        })
      ).status(),
    ).toBe(403);
    expect((await request.get(`${e2e.product.staffUrl}/api/webhook-calls`)).status()).toBe(403);
    await page.context().close();
  });
});
