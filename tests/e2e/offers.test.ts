import { copyFileSync, mkdirSync } from "node:fs";
import type { APIRequestContext, Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  launchBrowser,
  ownProduct,
  type Product,
  screenshotPath,
  signInViaApi,
  staffPage,
  viewports,
} from "../support/e2e";
import { joinOnPhone as joinOnPhoneFrom } from "../support/join";

/**
 * Issue 38's "done when", each as a person meets it on a phone (390×844), through the real join
 * site, the simulated card provider, the local mailbox, the business clock and the jobs:
 * 1. a new member joins with a 7-day free trial and a code for 50% off the first month, is
 *    emailed before the trial ends, follows every link of that email, stops the trial and pays
 *    nothing;
 * 2. another converts and pays exactly what the confirm page said;
 * 3. a member buys a 10-visit pass (worded as a pass), enters 10 times through the simulated Kisi
 *    and is refused on the 11th, with the reason shown to the member and to staff.
 * docs/offers.md.
 */
let product: Product;
let browser: Browser;
let admin: APIRequestContext;
let ponsonby: string;
const headers = { "X-Requested-With": "XMLHttpRequest" };
const made = { prices: [] as string[], codes: [] as string[] };
let promoCode: string;
let passLabel: string;
/** The pass member refused on the 11th entry, to whom staff then add visits. */
let passMember: string | undefined;

/** Screens of this file, also kept for a person to look at (/tmp/s5-38e). */
async function shot(page: Page, name: string) {
  const path = screenshotPath(`offers-${name}`);
  await page.screenshot({ path, fullPage: true });
  mkdirSync("/tmp/s5-38e", { recursive: true });
  copyFileSync(path, `/tmp/s5-38e/${name}.png`);
}

async function call(method: "GET" | "POST" | "DELETE", path: string, data?: unknown) {
  const response = await admin.fetch(`${product.staffUrl}${path}`, { method, headers, data });
  const body = await response.json().catch(() => ({}));
  if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${JSON.stringify(body)}`);
  return body.data;
}

/** The business clock: moved by days, or back to real time. */
async function clock(advance_days: number | null) {
  const response = await fetch(`${product.staffUrl}/api/dev/clock`, {
    method: advance_days === null ? "DELETE" : "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: advance_days === null ? undefined : JSON.stringify({ advance_days }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()).data as { now: string }).now;
}

async function job(name: string) {
  const response = await fetch(`${product.staffUrl}/api/dev/jobs/${name}`, { method: "POST", headers });
  expect(response.status, name).toBe(200);
}

beforeAll(async () => {
  // Its own product: it moves the business clock for days and leaves archived prices and visits
  // dated ahead (on the shared product they sorted before another file's new visit, and faded
  // rows failed axe's contrast check on the offerings page).
  product = await ownProduct();
  browser = await launchBrowser();
  const banner = product.output();
  const match = banner.match(/Harbour Fitness Ponsonby:\s+(\S+)/);
  expect(match, banner).toBeTruthy();
  ponsonby = match![1];
  const context = await browser.newContext();
  await signInViaApi(context, product.staffUrl, "admin@example.com");
  admin = context.request;
  const me = await call("GET", "/api/me");
  const prices = (await call("GET", `/api/organisations/${me.current_organisation.id}/prices`)) as {
    offering: { id: string; name: string };
  }[];
  const offering = (name: string) => prices.find((p) => p.offering.name === name)!.offering.id;
  // A monthly price with a 7-day free trial, a code for 50% off its first month, and a pass.
  const trial = await call("POST", `/api/offerings/${offering("Anytime Membership")}/prices`, {
    amount: 6_100,
    billing_frequency: "monthly",
    trial_days: 7,
    trial_amount: 0,
  });
  made.prices.push(trial.id);
  promoCode = `HALF${Date.now().toString(36).toUpperCase()}`;
  const code = await call("POST", "/api/promo-codes", {
    code: promoCode,
    kind: "percent",
    percent_basis_points: 5_000,
    periods: 1,
    price_ids: [trial.id],
  });
  made.codes.push(code.id);
  // The words: a price of kind "pass" carrying visits and valid_days.
  const pass = await call("POST", `/api/offerings/${offering("Summer Pass")}/prices`, {
    kind: "pass",
    amount: 12_000,
    visits: 10,
    valid_days: 90,
  });
  made.prices.push(pass.id);
  passLabel = pass.formatted_pass;
  expect(passLabel).toBe("10 visits, valid 90 days, $120.00 paid once");
}, 180_000);

afterAll(async () => {
  await clock(null).catch(() => undefined);
  for (const id of made.prices) await call("DELETE", `/api/prices/${id}/archive`).catch(() => undefined);
  for (const id of made.codes) await call("DELETE", `/api/promo-codes/${id}/archive`).catch(() => undefined);
  await browser?.close();
  await product?.stop();
});

let people = 0;
/** A new phone: opens the gym's link, registers for `membership`, passes the code, adds a photo, saves a card. */
async function joinOnPhone(membership: RegExp, name: string) {
  people += 1;
  const email = `offers${people}.${Date.now()}@example.nz`;
  const { page, errors } = await joinOnPhoneFrom(browser, {
    staffUrl: product.staffUrl,
    link: ponsonby,
    membership,
    email,
    onPlanList: (page) => shot(page, `${name}-plan-list`),
  });
  return { page, email, errors };
}

/** On the confirm page: the code typed and accepted, then its line. */
async function applyCode(page: Page) {
  await page.getByLabel(/Promo code/).fill(promoCode);
  await page.getByText(new RegExp(`Promo code ${promoCode} \\(50% off`)).waitFor();
}

async function confirm(page: Page) {
  await page.getByLabel(/membership terms/).check();
  await page.getByRole("button", { name: "Confirm membership" }).click();
  await page.getByRole("heading", { name: "Welcome to Harbour Fitness Ponsonby" }).waitFor();
}

async function meOf(page: Page) {
  return (await (await page.request.get(`${product.joinUrl}/api/me`)).json()).data as {
    id: string;
    email: string;
  };
}

async function paymentsOf(userId: string) {
  return (await call("GET", `/api/users/${userId}/payments?per_page=100`)) as {
    amount: number;
    surcharge: number;
    total: number;
    formatted_total: string;
    discount: number;
    due_on: string;
    status: string;
  }[];
}

async function mailTo(email: string) {
  const response = await fetch(`${product.staffUrl}/api/dev/mail?to=${encodeURIComponent(email)}`);
  return ((await response.json()) as { data: { subject: string; text: string; html?: string }[] }).data;
}

describe("a trial with a promo code, on a phone", () => {
  it("joins with a 7-day free trial and 50% off the first month, is emailed before it ends, follows every link, stops and pays nothing", async () => {
    try {
      const { page, email, errors } = await joinOnPhone(
        /Anytime Membership: 7-day free trial, then \$61\.00 Monthly/,
        "trial-stop",
      );
      await page
        .getByTestId("trial-summary")
        .getByText(/Nothing to pay for your 7-day trial\./)
        .waitFor();
      await applyCode(page);
      await shot(page, "trial-confirm");
      await confirm(page);
      await shot(page, "trial-welcome");
      const me = await meOf(page);
      // Today's billing run "pays" the free trial's $0.00 and plans the first paid month.
      await job("billing-run");

      // Three days before the first paid charge (the trial's fourth day): the trial-ending email.
      await clock(4);
      await job("member-notices");
      const ending = (await mailTo(email)).find((m) => /trial ends on/.test(m.subject));
      expect(ending, JSON.stringify((await mailTo(email)).map((m) => m.subject))).toBeTruthy();
      expect(ending!.text).toMatch(/Stop my trial/);
      // Every link of the email is followed on the phone; the "Stop my trial" one opens /membership.
      const links = [...new Set([...(ending!.html ?? "").matchAll(/href="([^"]+)"/g)].map((m) => m[1]))]
        .map((href) => href.replace(/&amp;/g, "&"))
        .filter((href) => /^https?:/.test(href));
      expect(links.length).toBeGreaterThan(0);
      for (const link of links) {
        const response = await page.goto(link);
        expect(response?.status(), link).toBeLessThan(400);
      }
      const stop = links.find((l) => l.endsWith("/membership"));
      expect(stop, links.join(" ")).toBeTruthy();
      await page.goto(stop!);
      const trial = page.getByRole("region", { name: "Your trial" });
      await trial.getByTestId("trial-ends").waitFor();
      await shot(page, "trial-membership");
      await trial.getByRole("button", { name: "Stop my trial" }).click();
      await trial.getByText("Stop your trial?").waitFor();
      await shot(page, "trial-stop-asked");
      await trial.getByRole("button", { name: "Stop my trial" }).click();
      await expect.poll(() => page.getByRole("region", { name: "Your trial" }).count()).toBe(0);
      await shot(page, "trial-stopped");

      // After the trial: the billing run takes nothing; every payment is $0.00.
      await clock(5);
      await job("billing-run");
      const payments = await paymentsOf(me.id);
      expect(payments.length).toBeGreaterThan(0);
      expect(payments.filter((p) => p.total > 0 && p.status !== "cancelled")).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    } finally {
      await clock(null);
    }
  }, 240_000);

  it("another member converts and pays exactly what the confirm page said", async () => {
    try {
      const { page, errors } = await joinOnPhone(
        /Anytime Membership: 7-day free trial, then \$61\.00 Monthly/,
        "trial-convert",
      );
      await applyCode(page);
      const said = (await page.getByTestId("payment-dates").textContent()) ?? "";
      const first = said.match(/First payment (\$\d+\.\d\d) on/);
      expect(first, said).toBeTruthy();
      const total = (
        await page
          .getByText(/^Total$/)
          .locator("xpath=..")
          .textContent()
      )?.replace("Total", "");
      expect(total).toBe(first![1]);
      await shot(page, "convert-confirm");
      await confirm(page);
      const me = await meOf(page);
      await job("billing-run");

      // The day after the trial: the billing run charges the first paid month, half price.
      await clock(7);
      await job("billing-run");
      // What was taken (the next month is planned beside it, upcoming).
      const paid = (await paymentsOf(me.id)).filter((p) => p.total > 0 && p.status !== "upcoming");
      expect(paid).toHaveLength(1);
      expect(paid[0]).toMatchObject({ formatted_total: first![1], amount: 3_050, discount: 3_050 });
      expect(paid[0].status).not.toMatch(/failed|declined/);
      await page.goto(`${product.joinUrl}/membership`);
      await page.getByRole("heading", { name: "My membership", exact: true }).waitFor();
      await shot(page, "convert-membership");
      expect(errors).toEqual([]);
      await page.context().close();
    } finally {
      await clock(null);
    }
  }, 240_000);
});

describe("a visit pass, on a phone", () => {
  it("is worded as a pass; the member enters 10 times and is refused on the 11th, with the reason", async () => {
    try {
      const plan = new RegExp(`Summer Pass: ${passLabel.replace(/[$.]/g, "\\$&")}`);
      const { page, errors } = await joinOnPhone(plan, "pass");
      await page.getByTestId("pass-summary").getByText(passLabel).waitFor();
      await page.getByText("Valid until").waitFor();
      await page
        .getByTestId("payment-dates")
        .getByText(/paid once: 10 visits, no further payments\./)
        .waitFor();
      // Worded as a pass, never as a membership term or a billing schedule.
      expect(await page.getByText(/^(PIF|Billing from|First payment)$/).count()).toBe(0);
      // Paid by card: the total agreed to carries the card surcharge, and is what is taken.
      const said = (await page.getByTestId("payment-dates").textContent()) ?? "";
      const agreed = said.match(/^Payment (\$\d+\.\d\d) today/)?.[1];
      expect(agreed, said).toBeTruthy();
      expect(agreed).not.toBe("$120.00");
      await shot(page, "pass-confirm");
      await confirm(page);
      const me = await meOf(page);
      await job("billing-run");
      passMember = me.id;
      await expect
        .poll(async () => (await paymentsOf(me.id)).map((p) => p.formatted_total))
        .toEqual([agreed]);

      const unlock = async () => {
        const response = await fetch(`${product.staffUrl}/api/dev/kisi/unlock`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({ user_id: me.id, door_id: "51001" }),
        });
        const answer = await response.text();
        expect(response.status, answer).toBe(200);
        return answer;
      };
      const visits = async () =>
        (await call("GET", `/api/users/${me.id}/visits`)) as { successful: boolean }[];
      const standing = await call("GET", `/api/members/${me.id}/access-control`);
      expect(standing, JSON.stringify(standing)).toMatchObject({ standing: true });
      // Ten days, one entry each: every one opens the door and uses a visit.
      const answers: string[] = [];
      for (let day = 0; day < 10; day++) {
        if (day > 0) await clock(1);
        await job("door-access");
        answers.push(await unlock());
      }
      await expect
        .poll(async () => (await visits()).filter((v) => v.successful).length, {
          message: `${answers.join("\n")}\n${JSON.stringify(await visits())}`,
          timeout: 15_000,
        })
        .toBe(10);
      await page.goto(`${product.joinUrl}/membership`);
      await page.getByTestId("pass-visits").getByText("0 of 10").waitFor();
      await shot(page, "pass-tenth-day");

      // The next day the door is closed: the eleventh entry is refused.
      await clock(1);
      await job("door-access");
      await unlock();
      await expect.poll(async () => (await visits()).length, { timeout: 15_000 }).toBe(11);
      const all = await visits();
      expect(all.filter((v) => v.successful)).toHaveLength(10);
      expect(all.filter((v) => !v.successful)).toHaveLength(1);
      await page.reload();
      await page
        .getByRole("region", { name: "Your visit pass" })
        .getByText("No visits left on the pass")
        .waitFor();
      await shot(page, "pass-refused-member");
      const door = await call("GET", `/api/members/${me.id}/access-control`);
      expect(door).toMatchObject({ standing: false, reason: "No visits left on the pass" });

      // Staff see the reason on the member's page.
      const staff = await browser.newContext({ viewport: viewports.phone, isMobile: true });
      await signInViaApi(staff, product.staffUrl, "admin@example.com");
      const staffPage = await staff.newPage();
      await staffPage.goto(`${product.staffUrl}/members/${me.id}`);
      await staffPage
        .getByRole("region", { name: "Door access" })
        .getByText("No visits left on the pass")
        .waitFor();
      await shot(staffPage, "pass-refused-staff");
      await staff.close();
      expect(errors).toEqual([]);
      await page.context().close();
    } finally {
      await clock(null);
    }
  }, 300_000);

  it("staff add visits with a reason: the member page shows the visits left, the activity log the reason", async () => {
    expect(passMember, "the pass member refused above").toBeTruthy();
    const page = await staffPage(browser, product, "admin@example.com");
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${product.staffUrl}/members/${passMember}`);
    /** A fact of the membership card: its value, under its label. */
    const card = page.getByRole("region", { name: "Membership", exact: true });
    const fact = (label: string) =>
      card.getByText(label, { exact: true }).locator("xpath=following-sibling::*[1]");
    await expect.poll(() => fact("Visits left").textContent()).toMatch(/^0 of 10, last used /);

    const reason = "The gym was closed two days for the storm";
    await card.getByRole("button", { name: "Add visits" }).click();
    const dialog = page.getByRole("dialog", { name: "Add visits to the pass" });
    await dialog.getByText("0 of 10 visits left.").waitFor();
    await dialog.getByLabel(/^Visits to add/).fill("3");
    await dialog.getByLabel(/^Reason/).fill(reason);
    await shot(page, "pass-add-visits");
    await dialog.getByRole("button", { name: "Add visits" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await page.getByText("Visits added").first().waitFor();
    await expect.poll(() => fact("Visits left").textContent()).toMatch(/^3 of 13, last used /);
    // A pass with visits left opens the door again (docs/offers.md "Staff add visits").
    await expect.poll(() => fact("Door access").textContent()).toBe("Yes");
    await shot(page, "pass-visits-added");

    await page.getByRole("link", { name: "Activity", exact: true }).click();
    const log = page.getByLabel("Activity", { exact: true });
    await log.getByText("Visits added to the pass").waitFor();
    await log.getByText(`3 visits added: ${reason}`).waitFor();
    await shot(page, "pass-visits-activity");
    expect(errors).toEqual([]);
    await page.context().close();
  }, 120_000);
});
