import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, type CivilDate } from "../../packages/core/src/billing/calendar";
import { launchBrowser, ownProduct, type Product, screenshotPath, staffPage } from "../support/e2e";
import { addMember, harbourOfProduct } from "../support/payments";

/**
 * The lifecycle on /members/{id} as the front desk does it, with the business clock moved on:
 * a weekly member is paused, the clock passes the pause, billing runs and their period is longer
 * by the paused days with nothing charged inside it; a term member cancelled inside cooling-off
 * owes nothing, another cancelled after it is charged the break fee, which the payments list shows.
 */
let product: Product;
let browser: Browser;
let today: CivilDate;
/** Each member's user id and name. */
const people = {} as Record<"paused" | "coolingOff" | "afterCoolingOff", { id: string; name: string }>;

/** "d/MM/yyyy", as the staff site shows and takes dates. */
const nz = (d: CivilDate) => {
  const [y, m, day] = d.split("-");
  return `${Number(day)}/${m}/${y}`;
};
const civil = (nzDate: string) => {
  const [d, m, y] = nzDate.split("/");
  return `${y}-${m}-${d.padStart(2, "0")}` as CivilDate;
};

const dev = async (path: string, body?: unknown) => {
  const response = await fetch(`${product.staffUrl}/api/dev/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Requested-With": "XMLHttpRequest" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
};

beforeAll(async () => {
  product = await ownProduct();
  browser = await launchBrowser();
  const { identity, offerings } = await harbourOfProduct(product.dynamoPort);
  const { businessToday } = await import("../../packages/core/src/clock");
  const { createSubscription } = await import("../../packages/core/src/subscription/service");
  const { findUserByEmail } = await import("../../packages/core/src/user/service");
  today = await businessToday();
  // A new term member, starting today: inside the 7-day cooling-off.
  const gymId = identity.gyms.ponsonby.gym_id;
  const { user } = await addMember(identity, {
    name: "Cody Coolingoff",
    email: "cody@lifecycle.example.net",
    gymId,
    method: "card",
  });
  await createSubscription({
    organisation_id: identity.organisations.harbour.organisation_id,
    user_id: user.user_id,
    gym_id: gymId,
    price_id: offerings.prices.anytimeTerm.price_id,
    start_date: today,
  });
  people.coolingOff = { id: user.user_id, name: "Cody Coolingoff" };
  // Demo members who pay by the simulated card (seeded by the product itself, so their cards
  // charge): the demo member on the weekly price, and a term member who joined ~11 months ago.
  for (const [key, email] of [
    ["paused", "member@example.com"],
    ["afterCoolingOff", "member3@harbour.example.nz"],
  ] as const) {
    const found = await findUserByEmail(email);
    if (!found) throw new Error(`No demo member ${email}`);
    people[key] = { id: found.user_id, name: found.name };
  }
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

async function memberPage(page: Page, userId: string, name: string) {
  await page.goto(`${product.staffUrl}/members/${userId}`);
  await page.getByRole("heading", { name, level: 1 }).waitFor();
  const card = page.getByRole("region", { name: "Membership" });
  await card.waitFor();
  return card;
}

/**
 * The rows of the member page's payments list as a person reads them, "due · status · amount ·
 * for" (what is shown: the status folded under the date for phones is not shown here, and the
 * receipt link's cell is left out).
 */
const paymentRows = (page: Page) =>
  page
    .getByRole("table", { name: "Payments" })
    .locator("tbody tr")
    .evaluateAll((rows) => {
      // The text of what is displayed (as typed, not as CSS capitalises it).
      const shown = (node: Node): string =>
        node.nodeType === Node.TEXT_NODE
          ? (node.textContent ?? "")
          : node instanceof Element && getComputedStyle(node).display === "none"
            ? ""
            : [...node.childNodes].map(shown).join("");
      return rows.map((r) =>
        [...r.querySelectorAll("td")]
          .slice(0, 4)
          .map((c) => shown(c).trim())
          .join(" · "),
      );
    });

/** Opens an action's dialog on the membership card. */
async function openAction(
  page: Page,
  card: Awaited<ReturnType<typeof memberPage>>,
  button: string,
  title: string,
) {
  await card.getByRole("button", { name: button, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: title });
  await dialog.waitFor();
  return dialog;
}

describe("membership lifecycle on the member page", () => {
  it("cancels a term member inside cooling-off: no break fee, flagged as such", async () => {
    const page = await staffPage(browser, product, "admin@example.com");
    const card = await memberPage(page, people.coolingOff.id, people.coolingOff.name);
    await card.getByText("Cooling-off until").waitFor();
    const dialog = await openAction(page, card, "Cancel", "Cancel membership");
    await dialog.getByText("Inside the cooling-off period: no break fee.").waitFor();
    expect(await dialog.getByText(/break fee of/).count()).toBe(0);
    await page.screenshot({ path: screenshotPath("lifecycle-cancel-cooling-off") });
    await dialog.getByRole("button", { name: "Cancel membership" }).click();
    await page.getByText("Membership cancelled").waitFor();
    await card.getByText(/^Cancelling: last day \d{1,2}\/\d\d\/\d{4}$/).waitFor();
    // Only the first payment (joining fee and week): nothing was added for the cancellation.
    await page.getByRole("table", { name: "Payments" }).waitFor();
    const rows = await paymentRows(page);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(new RegExp(`^${nz(today)} · Upcoming · `));
  });

  it("pauses a member; past the pause, billing has charged nothing inside it and the period is longer", async () => {
    const page = await staffPage(browser, product, "admin@example.com");
    let card = await memberPage(page, people.paused.id, people.paused.name);
    // A weekly period in progress, shown by its first and last day (docs/billing.md "Last days"):
    // the pause starts tomorrow (inside it or just after its last day).
    const period = await card.getByText(/^\d{1,2}\/\d\d\/\d{4} – \d{1,2}\/\d\d\/\d{4}$/).innerText();
    const [from, last] = period.split(" – ").map(civil);
    expect(from <= today && today <= last).toBe(true);
    const left = Number((await card.getByText(/^\d+ of 30$/).innerText()).split(" ")[0]);

    const dialog = await openAction(page, card, "Pause", "Pause membership");
    const start = addDays(today, 1);
    const end = addDays(today, 8);
    // The first and the last paused day, both included (as on the join site): back on `end`.
    await dialog.getByRole("textbox", { name: "First day" }).fill(nz(start));
    await dialog.getByRole("textbox", { name: "Last day" }).fill(nz(addDays(end, -1)));
    // Leaving the field closes its calendar, as a person moving on to the button does.
    await page.keyboard.press("Tab");
    await dialog.getByText(`Back on ${nz(end)}. Uses 7 of ${left} pause days.`).waitFor();
    await page.screenshot({ path: screenshotPath("lifecycle-pause-dialog") });
    await dialog.getByRole("button", { name: "Pause membership" }).click();
    await page.getByText("Pause saved").waitFor();
    await card.getByText(`Pause from ${nz(start)}`).waitFor();
    await card.getByText(`${left - 7} of 30`).waitFor();
    // The period in progress grows by the 7 paused days, and the next payment (the day after its
    // new last day) moves with it.
    const extendedLast = addDays(last, 7);
    const next = addDays(extendedLast, 1);
    await card.getByText(`${nz(from)} – ${nz(extendedLast)}`).waitFor();
    // The next payment as the quote says it ("$24.90 on 12/12/2026 incl. … · Visa •••• 4242").
    await card.getByText(new RegExp(`on ${nz(next)}( |$)`)).waitFor();
    await page.screenshot({ path: screenshotPath("lifecycle-paused"), fullPage: true });

    // On the day the pause ends, the billing run.
    await dev("clock", { advance_days: 8 });
    await dev("jobs/billing-run");
    card = await memberPage(page, people.paused.id, people.paused.name);
    await card.getByText("Active", { exact: true }).waitFor();
    const rows = await paymentRows(page);
    // Nothing fell due between the old period end and the pause's end, and the payment after the
    // extended period is there (charged today if it fell due today, else upcoming).
    for (const row of rows) {
      const due = civil(row.split(" · ")[0]);
      expect(due > last && due < next, row).toBe(false);
    }
    expect(rows.some((r) => r.startsWith(`${nz(next)} · `))).toBe(true);
    await page.screenshot({ path: screenshotPath("lifecycle-after-pause"), fullPage: true });
  });

  it("cancels a term member after cooling-off: the break fee is stated, then charged as a payment", async () => {
    const page = await staffPage(browser, product, "admin@example.com");
    const card = await memberPage(page, people.afterCoolingOff.id, people.afterCoolingOff.name);
    await card.getByText("Term ends").waitFor();
    expect(await card.getByText("Cooling-off until").count()).toBe(0);
    const dialog = await openAction(page, card, "Cancel", "Cancel membership");
    // The fee, its surcharge and what the member pays in all (issue 34 item 5): the button says the total.
    const fee = dialog.getByText(
      /^A break fee of \$[\d,]+\.\d\d is charged \(25% of the term still to run\)/,
    );
    await fee.waitFor();
    const feeText = await fee.innerText();
    const amount = feeText.match(/pays (\$[\d,]+\.\d\d)/)?.[1] ?? feeText.match(/\$[\d,]+\.\d\d/)![0];
    expect(await dialog.getByText("Inside the cooling-off period: no break fee.").count()).toBe(0);
    await page.screenshot({ path: screenshotPath("lifecycle-cancel-break-fee") });
    await dialog.getByRole("button", { name: `Cancel and charge ${amount}` }).click();
    await page.getByText("Membership cancelled").waitFor();
    // The break fee is a payment due today (the clock is 8 days on): the amount the dialog
    // stated, plus the card surcharge.
    const due = nz(addDays(today, 8));
    await expect
      .poll(() => paymentRows(page))
      .toContainEqual(expect.stringMatching(new RegExp(`^${due} · Upcoming · \\$[\\d,.]+ · Break fee`)));
    const row = (await paymentRows(page)).find((r) => r.includes("Break fee"))!;
    const cents = (text: string) => Math.round(Number(text.replace(/[$,]/g, "")) * 100);
    const total = cents(row.split(" · ")[2]);
    expect(total).toBeGreaterThanOrEqual(cents(amount));
    expect(total).toBeLessThan(cents(amount) * 1.05);
    await page.screenshot({ path: screenshotPath("lifecycle-break-fee-payment"), fullPage: true });
  });
});
