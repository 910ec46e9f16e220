import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { screenshotPath, staffPage, useProductAndBrowser, viewports } from "../support/e2e";
import { seedIntoProduct } from "../support/payments";

// Its own product: its billing run, three days on, charges every organisation's demo members.
const e2e = useProductAndBrowser({}, { own: true });

/**
 * The money engine seen from the back office: four members whose first payments fall due over
 * the next days and a pay-in-full member paying by bank transfer. The business clock moves three
 * days on, the billing run charges what fell due (and schedules each member's next payment), the
 * admin sees the new payments on /payments, marks the bank transfer received and exports the list.
 */
/** The test's own gym: the list is filtered to it, so demo data elsewhere never pushes its rows off the page. */
let gym: string;

beforeAll(async () => {
  gym = (await seedIntoProduct(e2e.product.dynamoPort, 4, "e2e", "Harbour Fitness E2E")).gymId!;
});

const dev = (path: string, init?: RequestInit) =>
  fetch(`${e2e.product.staffUrl}/api/dev/${path}`, {
    ...init,
    headers: { "Content-Type": "application/json", "X-Requested-With": "XMLHttpRequest" },
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data: Record<string, any> } }));

describe("payments", () => {
  it("billing run → new payments on /payments → mark a bank transfer received → export CSV", async () => {
    const page = await staffPage(e2e.browser, e2e.product, "admin@example.com");
    await page.goto(`${e2e.product.staffUrl}/payments?status=upcoming&gym_id=${gym}`);
    const table = page.getByRole("table", { name: "Payments" });
    await table.getByText("e2e 000 card").waitFor();
    expect(await table.getByText(/^e2e \d{3} (card|bank)$/i).count()).toBe(4);
    expect(await page.getByTestId("business-clock-banner").count()).toBe(0);

    // Three days on, the billing run charges the payments due by then.
    const moved = await dev("clock", { method: "POST", body: JSON.stringify({ advance_days: 3 }) });
    expect(moved.status).toBe(200);
    expect(moved.body.data.simulated).toBe(true);
    const run = await dev("jobs/billing-run", { method: "POST" });
    expect(run.status, JSON.stringify(run.body)).toBe(200);

    await page.goto(`${e2e.product.staffUrl}/payments?gym_id=${gym}`);
    await page.getByTestId("business-clock-banner").waitFor();
    await table.getByText("e2e 000 card").first().waitFor();
    // Each member now has the charged payment and their next upcoming one.
    await expect.poll(() => table.getByText(/^e2e \d{3} (card|bank)$/i).count(), { timeout: 15_000 }).toBe(8);
    const charged = table.getByRole("row").filter({ hasText: "e2e 000 card" });
    await expect.poll(() => charged.count()).toBe(2);
    expect(await charged.locator('[data-status="upcoming"]').count()).toBe(1);
    await page.screenshot({ path: screenshotPath("payments-after-billing-run"), fullPage: true });

    // The bank transfer: mark it received behind the confirm dialog.
    const transfer = table.getByRole("row").filter({ hasText: "e2e pif transfer" });
    await transfer.locator('[data-status="awaiting_payment"]').waitFor();
    await transfer.getByRole("button", { name: "Mark received" }).click();
    const dialog = page.getByRole("dialog", { name: "Mark payment received?" });
    await dialog.getByText("$299.00").waitFor();
    await dialog.getByRole("button", { name: "Mark received" }).click();
    await dialog.waitFor({ state: "hidden" });
    await transfer.locator('[data-status="sent"]').waitFor();

    // Export the list and read the file.
    // (filtered to the test's gym, as the page is)
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^payments-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = (await readFile((await file.path())!, "utf8")).replace(/^\uFEFF/, "");
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^Payment ID,Due date,Member,Email,Gym,Membership,Type,Status,Amount \(NZD\)/);
    const pif = lines.find((l) => l.toLowerCase().includes("e2e pif transfer"));
    // The labels the screens show, not the codes (issue 35: one set of labels, contract/labels.ts).
    expect(pif).toMatch(/,Paid in full,Successful,299\.00,0\.00,299\.00,/);
    expect(lines.filter((l) => /e2e \d{3} (card|bank)/i.test(l))).toHaveLength(8);
  });

  it("shows payments as cards on a phone", async () => {
    const page = await staffPage(e2e.browser, e2e.product, "admin@example.com", viewports.phone);
    await page.goto(`${e2e.product.staffUrl}/payments?gym_id=${gym}`);
    await page.getByText("e2e pif transfer").waitFor();
    expect(await page.getByRole("table", { name: "Payments" }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath("payments-phone"), fullPage: true });
    await dev("clock", { method: "DELETE" });
  });
});
