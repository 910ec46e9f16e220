import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  newestMailId,
  screenshotPath,
  signInViaApi,
  staffPage,
  useProductAndBrowser,
  viewports,
} from "../support/e2e";
import { appRegisterForm, photoPng, verifyEmail } from "../support/join";

/**
 * Issue 23's journeys, each as a person meets it: a member on a phone following an email's link,
 * staff at the desk knowing a member by their photo, a trainer shown only what they may do, the
 * dashboard on the business clock, and a start date that defaults to the business date.
 */
const e2e = useProductAndBrowser();
const headers = { "X-Requested-With": "XMLHttpRequest" };

/**
 * One signed-in admin for the whole file: a sign-in emails a code, and an account may ask for
 * five an hour (auth/two-factor.ts), fewer than this file's admin steps.
 */
let admin: Promise<BrowserContext> | null = null;
function adminContext(): Promise<BrowserContext> {
  admin ??= (async () => {
    const context = await e2e.browser.newContext({ viewport: viewports.desktop });
    await signInViaApi(context, e2e.product.staffUrl, "admin@example.com");
    return context;
  })();
  return admin;
}

async function adminPage(): Promise<Page> {
  return (await adminContext()).newPage();
}

let ponsonby: Promise<string> | null = null;
function ponsonbyUuid(): Promise<string> {
  ponsonby ??= (async () => {
    const context = await adminContext();
    const get = async (path: string) =>
      (await (await context.request.get(`${e2e.product.staffUrl}${path}`)).json()).data;
    const gym = (await get("/api/gyms")).find((g: { name: string }) => g.name === "Harbour Fitness Ponsonby");
    return (await get(`/api/gyms/${gym.id}`)).uuid as string;
  })();
  return ponsonby;
}

async function consoleErrors(page: Page) {
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  return errors;
}

/** An image on the page that the browser actually loaded. */
async function loadedImage(page: Page, selector: string) {
  await expect
    .poll(() =>
      page.evaluate(
        (s) =>
          [...document.querySelectorAll<HTMLImageElement>(s)].some(
            (img) => img.complete && img.naturalWidth > 0,
          ),
        selector,
      ),
    )
    .toBe(true);
}

describe("a member following an email", () => {
  it("'Update your payment method' opens the payment step: signed in at once, signed out through sign-in", async () => {
    const mail = (await (await fetch(`${e2e.product.staffUrl}/api/dev/mail`)).json()).data as {
      html?: string;
    }[];
    const link = mail
      .flatMap((m) => [...(m.html ?? "").matchAll(/href="([^"]+\/payment-method)"/g)].map((x) => x[1]))
      .at(0);
    expect(link, "the seed's failed payment emailed a link").toBeTruthy();
    const url = new URL(link!).pathname;

    // Signed out on a phone: not "Page not found", but sign-in that comes back here.
    const guest = await (
      await e2e.browser.newContext({ viewport: viewports.phone, isMobile: true })
    ).newPage();
    await guest.goto(`${e2e.product.joinUrl}${url}`);
    await guest.waitForURL(/redirect=%2Fchoose-payment-method/);
    expect(await guest.getByText("Page not found").count()).toBe(0);
    // The sign-in form at once (the member has an account), not the new-member form.
    await guest.getByRole("heading", { name: "Sign in" }).waitFor();
    await guest.context().close();

    // Signed in (the demo member, subscribed): the page to change how they pay.
    const context = await e2e.browser.newContext({ viewport: viewports.phone, isMobile: true });
    await signInViaApi(context, e2e.product.staffUrl, "member@example.com");
    const page = await context.newPage();
    await page.goto(`${e2e.product.joinUrl}${url}`);
    await page.getByRole("heading", { name: "Choose how to pay" }).waitFor();
    await page.screenshot({ path: screenshotPath("journeys-payment-method-phone") });
    await context.close();
  }, 60_000);
});

describe("staff at the desk", () => {
  it("see the member's photo on the member page, the members list and search", async () => {
    const member = await e2e.browser.newContext();
    await signInViaApi(member, e2e.product.staffUrl, "member@example.com");
    const upload = await member.request.post(`${e2e.product.staffUrl}/api/profile-picture`, {
      headers,
      multipart: { file: { name: "me.png", mimeType: "image/png", buffer: photoPng() } },
    });
    expect(upload.status()).toBe(200);
    const id = (await (await member.request.get(`${e2e.product.staffUrl}/api/me`)).json()).data.id as string;
    await member.close();

    const page = await adminPage();
    // A tag, to find them on the list's first page.
    const tagged = await page.context().request.put(`${e2e.product.staffUrl}/api/members/${id}`, {
      headers,
      data: { tags: ["desk"] },
    });
    expect(tagged.status()).toBe(200);
    await page.goto(`${e2e.product.staffUrl}/members/${id}`);
    await page.getByRole("heading", { level: 1, name: "Morgan Member" }).waitFor();
    await loadedImage(page, 'main img[src^="/api/files/profile-pictures/"]');

    await page.goto(`${e2e.product.staffUrl}/members?tag=desk`);
    await page.getByRole("link", { name: "Morgan Member" }).waitFor();
    await loadedImage(page, 'main img[src^="/api/files/profile-pictures/"]');

    await page.getByLabel("Search members").first().fill("morgan");
    await page.getByRole("option", { name: /Morgan Member/ }).waitFor();
    await loadedImage(page, '[role="option"] img[src^="/api/files/profile-pictures/"]');
    await page.screenshot({ path: screenshotPath("journeys-search-photo-desktop") });
    await page.close();
  }, 60_000);

  it("a personal trainer is shown no money and no actions they may not take", async () => {
    const page = await staffPage(e2e.browser, e2e.product, "trainer@example.com");
    const errors = await consoleErrors(page);
    await page.goto(`${e2e.product.staffUrl}/dashboard`);
    await page.getByRole("heading", { level: 1, name: /, Taylor$/ }).waitFor();
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Members" }).waitFor();
    expect(await nav.getByRole("link", { name: "Payments" }).count()).toBe(0);
    expect(await page.getByText(/revenue/i).count()).toBe(0);
    expect(await page.getByRole("link", { name: /Quote a first payment/ }).count()).toBe(0);

    for (const path of ["/payments", "/members/change-price", "/calculate-pro-rata", "/members/pif"]) {
      await page.goto(`${e2e.product.staffUrl}${path}`);
      await page.waitForURL(/\/dashboard$/);
    }
    await page.goto(`${e2e.product.staffUrl}/members?tag=desk`);
    await page.getByRole("link", { name: "Morgan Member" }).click();
    await page.getByRole("heading", { level: 1, name: "Morgan Member" }).waitFor();
    await page
      .getByRole("button", { name: "Activity" })
      .or(page.getByRole("link", { name: "Activity" }))
      .waitFor();
    expect(await page.getByRole("button", { name: "Edit details" }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath("journeys-trainer-member-desktop") });
    expect(errors).toEqual([]);
    await page.context().close();
  }, 60_000);
});

describe("the business clock", () => {
  it("the dashboard's date follows it, with no failing call; a new member's start date defaults to it", async () => {
    const moved = await fetch(`${e2e.product.staffUrl}/api/dev/clock`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ advance_days: 40 }),
    });
    expect(moved.status).toBe(200);
    const now = (await moved.json()).data.now as string;
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Auckland" }).format(new Date(now));
    const long = new Intl.DateTimeFormat("en-NZ", {
      timeZone: "Pacific/Auckland",
      day: "numeric",
      month: "long",
      year: "numeric",
    }).format(new Date(now));
    try {
      const page = await adminPage();
      const errors = await consoleErrors(page);
      await page.goto(`${e2e.product.staffUrl}/dashboard`);
      await page.getByRole("heading", { level: 1, name: /, Avery$/ }).waitFor();
      await page.getByText(long, { exact: false }).first().waitFor();
      await page.getByText("Active members").first().waitFor();
      await page.waitForLoadState("networkidle");
      expect(errors).toEqual([]);
      await page.close();

      // The gym's link on a phone: the start date is the business date, which the server accepts.
      const join = await (
        await e2e.browser.newContext({ viewport: viewports.phone, isMobile: true })
      ).newPage();
      await join.goto(`${e2e.product.joinUrl}/?gym=${await ponsonbyUuid()}`);
      await appRegisterForm(join);
      // Shown day first (issue 35): "28/11/2026" for 2026-11-28.
      const [y, m, d] = today.split("-");
      expect(await join.getByLabel(/^Start date/).inputValue()).toBe(`${Number(d)}/${m}/${y}`);
      await join.context().close();
    } finally {
      await fetch(`${e2e.product.staffUrl}/api/dev/clock`, { method: "DELETE", headers });
    }
  }, 60_000);
});

/** A code emailed to an address after a given mail id. */
const verifyOnPage = (page: Page, email: string, before: string | undefined) =>
  verifyEmail(page, e2e.product.staffUrl, email, before);

/** True when the element's text fits inside it (nothing clipped or cut off). */
function fits(page: Page, selector: string) {
  return page.evaluate((s) => {
    const el = document.querySelector<HTMLElement>(s);
    if (!el) return false;
    const label = el.querySelector<HTMLElement>(".mantine-Button-label") ?? el;
    const box = el.getBoundingClientRect();
    return label.scrollWidth <= label.clientWidth + 1 && box.right <= window.innerWidth + 1;
  }, selector);
}

describe("a new member on a phone", () => {
  it("is shown the first error, keeps what they typed over a reload, resumes the bank connection after a reload, reads both first payments, and keeps an unsaved emergency contact", async () => {
    const context = await e2e.browser.newContext({
      viewport: viewports.phone,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const link = `${e2e.product.joinUrl}/?gym=${await ponsonbyUuid()}`;
    await page.goto(link);
    await appRegisterForm(page);

    // 3. Create account with nothing filled: the first error ("Choose a membership") is in view and focused.
    await page.getByRole("button", { name: "Create account" }).click();
    await expect
      .poll(() =>
        page.evaluate(() => {
          const focused = document.activeElement as HTMLElement | null;
          const group = focused?.closest('[role="radiogroup"]');
          if (!group) {
            const where = `${focused?.tagName ?? "nothing"} ${focused?.getAttribute("aria-label") ?? focused?.textContent?.slice(0, 40) ?? ""}`;
            const shown = document.body.textContent?.includes("Choose a membership") ? "shown" : "not shown";
            return `focus is not on the membership choice but on ${where} (its message is ${shown})`;
          }
          const box = focused!.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight ? "ok" : "out of view";
        }),
      )
      .toBe("ok");
    await page.screenshot({ path: screenshotPath("journeys-register-first-error-phone") });

    // What was typed survives a reload, except the password.
    const email = `journey.${Date.now()}@example.nz`;
    await page.getByRole("radio", { name: /Anytime Membership: \$24\.00 Weekly/ }).check();
    await page.getByLabel(/^Full name/).fill("isla ngata");
    await page.getByLabel(/^Email/).fill(email);
    await page.getByLabel(/^Mobile number/).fill("021 123 4567");
    await page.getByLabel(/^Date of birth/).fill("15/03/1990");
    await page.getByLabel(/^Password/).fill("a long passphrase");
    await page.reload();
    await appRegisterForm(page);
    expect(await page.getByLabel(/^Full name/).inputValue()).toBe("isla ngata");
    expect(await page.getByLabel(/^Email/).inputValue()).toBe(email);
    expect(await page.getByLabel(/^Mobile number/).inputValue()).toBe("021 123 4567");
    expect(await page.getByLabel(/^Date of birth/).inputValue()).toBe("15/03/1990");
    expect(await page.getByRole("radio", { name: /Anytime Membership: \$24\.00 Weekly/ }).isChecked()).toBe(
      true,
    );
    expect(await page.getByLabel(/^Password/).inputValue()).toBe("");
    await page.getByLabel(/^Password/).fill("a long passphrase");
    const before = await newestMailId(e2e.product.staffUrl);
    await page.getByRole("button", { name: "Create account" }).click();
    await verifyOnPage(page, email, before);
    await page.getByRole("heading", { name: "Add a profile photo" }).waitFor();
    await page
      .getByLabel("Photo")
      .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: photoPng() });
    await page.getByRole("button", { name: "Use this photo" }).click();
    await page.getByRole("heading", { name: "Choose how to pay" }).waitFor();

    // 2. A cancelled consent: "Choose another way to pay" fits the phone.
    await page.goto(`${e2e.product.joinUrl}/connect-akahu?error=access_denied`);
    const another = page.getByRole("button", { name: "Choose another way to pay" });
    await another.waitFor();
    await another.evaluate((el) => el.setAttribute("data-check", "another"));
    expect(await fits(page, '[data-check="another"]')).toBe(true);
    await another.click();
    await page.getByRole("heading", { name: "Choose how to pay" }).waitFor();

    // 2. Reload after the consent: the accounts again, not "expired".
    await page.getByRole("button", { name: /^Bank account/ }).click();
    await page.getByRole("link", { name: "Connect Simulated Bank" }).click();
    await page.getByRole("radio", { name: "Everyday" }).waitFor();
    await page.reload();
    await page.getByRole("radio", { name: "Everyday" }).waitFor();
    expect(await page.getByText(/expired or is not yours/).count()).toBe(0);
    await page.getByRole("radio", { name: "Everyday" }).check();
    await page.getByRole("button", { name: "Use this account" }).click();
    await page.getByRole("heading", { name: "Bank account connected" }).waitFor();
    // Back from the next step comes back to the accounts, not to a failure.
    await page.goBack();
    await page.getByRole("radio", { name: "Everyday" }).waitFor();
    expect(await page.getByText(/expired or is not yours/).count()).toBe(0);
    await page.getByRole("button", { name: "Use this account" }).click();
    await page.getByRole("button", { name: "Continue" }).click();

    // 4. When each of the first two payments falls, with amounts (en-NZ dates, from the server's quote).
    await page.getByRole("heading", { name: "Confirm your membership" }).waitFor();
    const now = (await (await fetch(`${e2e.product.staffUrl}/api/dev/clock`)).json()).data.now as string;
    // "Thu 26 Nov": the weekday, day and short month in Auckland.
    const day = (offset: number) => {
      const parts = Object.fromEntries(
        new Intl.DateTimeFormat("en-NZ", {
          timeZone: "Pacific/Auckland",
          weekday: "short",
          day: "numeric",
          month: "short",
        })
          .formatToParts(new Date(new Date(now).getTime() + offset * 86_400_000))
          .map((p) => [p.type, p.value]),
      );
      return `${parts.weekday} ${parts.day} ${parts.month}`;
    };
    await page.getByText(`First payment $24.00 today, ${day(0)}`).waitFor();
    await page.getByText(`then $24.00 every week from ${day(7)}`).waitFor();

    // 5. The emergency contact typed without "Save my details" is saved with the confirmation.
    await page.getByRole("button", { name: "About you (optional)" }).click();
    await page.getByRole("textbox", { name: "Name", exact: true }).fill("Hemi Ngata");
    await page.getByRole("textbox", { name: "Mobile number" }).fill("021 765 4321");
    await page.getByLabel(/membership terms/).check();
    await page.getByLabel(/authorise .* to debit my bank account/).check();
    await page.screenshot({ path: screenshotPath("journeys-confirm-phone"), fullPage: true });
    await page.getByRole("button", { name: "Confirm membership" }).click();
    await page.getByRole("heading", { name: "Welcome to Harbour Fitness Ponsonby" }).waitFor();
    const me = (await (await context.request.get(`${e2e.product.staffUrl}/api/me/registration`)).json()).data;
    expect(me.register_fields).toMatchObject({
      emergency_contact_name: "Hemi Ngata",
      emergency_contact_mobile_number: "021 765 4321",
    });
    await context.close();
  }, 180_000);
});

describe("an existing member on the join site", () => {
  it("is told once, not as an error, that their address has an account; keeps the gym's branding at the code; is welcomed with what is true; can sign out", async () => {
    const context = await e2e.browser.newContext({
      viewport: viewports.phone,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await page.goto(`${e2e.product.joinUrl}/?gym=${await ponsonbyUuid()}`);
    await appRegisterForm(page);

    // 7. The email-exists message once, as a status rather than an error.
    await page.getByLabel(/^Email/).fill("member@example.com");
    await page.getByLabel(/^Mobile number/).focus();
    const notice = page.getByText(/an account with us|already exists/i);
    await notice.first().waitFor();
    expect(await notice.count()).toBe(1);
    expect(await page.getByLabel(/^Email/).getAttribute("aria-invalid")).not.toBe("true");
    await page.screenshot({ path: screenshotPath("journeys-email-exists-phone") });

    // 7. Signing in: the gym's name stays at the head of the code page.
    await page.getByRole("button", { name: "Already have an account? Sign in" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    const before = await newestMailId(e2e.product.staffUrl);
    await page.getByLabel(/^Email/).fill("member@example.com");
    await page.getByLabel(/^Password/).fill("demo-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Verify your email" }).waitFor();
    await page.getByRole("banner").getByText("Harbour Fitness Ponsonby").waitFor();
    await verifyOnPage(page, "member@example.com", before);

    // 6. The welcome of a member the gym made: no "we've emailed you", the plan named, the next
    // payment not called the first.
    await page.getByRole("heading", { name: /^Welcome to / }).waitFor();
    const state = (await (await context.request.get(`${e2e.product.staffUrl}/api/me/registration`)).json())
      .data;
    expect(state.welcome_emailed).toBe(false);
    expect(await page.getByText(/emailed you/).count()).toBe(0);
    await page.getByText(state.subscription.price.offering.name, { exact: false }).first().waitFor();
    await page.getByText(/^Next payment \$/).waitFor();
    expect(await page.getByText(/^First payment/).count()).toBe(0);
    await page.screenshot({ path: screenshotPath("journeys-welcome-existing-phone"), fullPage: true });

    // 7. Sign out, from the header.
    await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    const me = await context.request.get(`${e2e.product.staffUrl}/api/me`);
    expect(me.status()).toBe(401);
    await context.close();
  }, 120_000);
});

describe("staff changing prices", () => {
  it("leaving From empty schedules a rise at each member's first period end after the notice", async () => {
    const page = await adminPage();
    // A price change moves the amount, never the term (docs/billing.md, issue 34 item 7): the rise
    // goes to a price with the term members already have, made here.
    const api = { headers: { "X-Requested-With": "XMLHttpRequest" } };
    const me = (await (await page.request.get(`${e2e.product.staffUrl}/api/me`, api)).json()).data;
    const prices = (
      await (
        await page.request.get(
          `${e2e.product.staffUrl}/api/organisations/${me.current_organisation.id}/prices`,
          api,
        )
      ).json()
    ).data as { offering: { id: string; name: string } }[];
    const anytime = prices.find((p) => p.offering.name === "Anytime Membership")?.offering.id;
    const made = await page.request.post(`${e2e.product.staffUrl}/api/offerings/${anytime}/prices`, {
      ...api,
      data: { amount: 2_200, billing_frequency: "weekly", term_amount: 12, term_unit: "months" },
    });
    expect(made.status(), await made.text()).toBe(201);
    await page.goto(`${e2e.product.staffUrl}/members/change-price`);
    await page.getByRole("heading", { level: 1, name: "Change price" }).waitFor();
    await page.getByRole("combobox", { name: "Members on the price" }).click();
    await page.getByRole("option", { name: "Anytime Membership: $20.00 Weekly · 12M Term" }).click();
    const table = page.getByRole("table", { name: "Members on the price" });
    await table.locator("tbody tr").first().getByRole("checkbox").check();
    await page.getByRole("combobox", { name: "New price" }).click();
    await page.getByRole("option", { name: "Anytime Membership: $22.00 Weekly · 12M Term" }).click();
    // From left empty.
    await page.getByRole("button", { name: "Preview emails" }).click();
    await page.getByText(/emails? will be sent/).waitFor();
    expect(await page.getByText(/or later/).count()).toBe(0);
    const schedule = page.getByRole("button", { name: "Schedule price change" });
    expect(await schedule.isEnabled()).toBe(true);
    await page.screenshot({ path: screenshotPath("journeys-change-price-desktop"), fullPage: true });

    // A date inside the notice: said at the field, in en-NZ.
    await page.getByRole("textbox", { name: "From" }).fill("02/12/2026");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Preview emails" }).click();
    const error = page.getByText(/choose \d{1,2}\/\d{2}\/\d{4} or later/);
    await error.waitFor();
    const field = await page.getByRole("textbox", { name: "From" }).getAttribute("aria-describedby");
    expect(field ?? "").toContain(await error.getAttribute("id").then((id) => id ?? "none"));
    await schedule.waitFor();
    await page.close();
  }, 60_000);
});

describe("an organisation admin", () => {
  it("makes an organisation-wide age-bypass link, copies it, and it opens the join site without the age limit", async () => {
    const page = await adminPage();
    await page.goto(`${e2e.product.staffUrl}/organisation/settings`);
    const section = page.getByRole("region", { name: "Age-bypass links" });
    await section.getByRole("button", { name: "Make an age-bypass link" }).click();
    const link = section.getByRole("textbox", { name: "Age-bypass link" });
    await link.waitFor();
    const url = await link.inputValue();
    expect(url).toMatch(/\/\?age_bypass=[\w-]+$/);
    await section.getByRole("button", { name: "Copy link" }).waitFor();
    await page.screenshot({ path: screenshotPath("journeys-age-bypass-desktop"), fullPage: true });
    await page.close();

    const join = await (
      await e2e.browser.newContext({ viewport: viewports.phone, isMobile: true })
    ).newPage();
    await join.goto(`${e2e.product.joinUrl}${new URL(url).pathname}${new URL(url).search}`);
    await appRegisterForm(join);
    expect(await join.getByText(/You must be at least/).count()).toBe(0);
    await join.context().close();
  }, 60_000);
});
