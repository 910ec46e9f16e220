import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, serious } from "../support/axe";
import {
  holdAppCode,
  launchBrowser,
  newestMailId,
  type Product,
  screenshotPath,
  sharedProduct,
  signInViaApi,
  staffPage,
  viewports,
} from "../support/e2e";
import {
  addPhoto as addPhotoStep,
  appRegisterForm,
  fillRegister as fillRegisterForm,
  verifyEmail,
} from "../support/join";

/**
 * The join site on a phone (390×844): a person opens a gym's link, registers, enters the emailed
 * code, adds a photo, pays by bank (the simulated Akahu consent) or card (the simulated Stripe
 * card form), confirms, and lands on the welcome page; an under-age applicant is refused, then
 * accepted through an age-bypass link; a private price link opens with its price.
 */
let product: Product;
let browser: Browser;
let ponsonby: string;
let staffRateLink: string;

beforeAll(async () => {
  product = await sharedProduct();
  browser = await launchBrowser();
  // The gym's join link is printed in the start banner.
  const banner = product.output();
  const match = banner.match(/Harbour Fitness Ponsonby:\s+(\S+)/);
  expect(match, banner).toBeTruthy();
  ponsonby = match![1];
  expect(ponsonby.startsWith(`${product.joinUrl}/?gym=`)).toBe(true);

  // A private price link, as the staff site shows it to an admin.
  const context = await browser.newContext();
  await signInViaApi(context, product.staffUrl, "admin@example.com");
  const me = await (await context.request.get(`${product.staffUrl}/api/me`)).json();
  const prices = await (
    await context.request.get(
      `${product.staffUrl}/api/organisations/${me.data.current_organisation.id}/prices`,
    )
  ).json();
  const staffRate = prices.data.find(
    (p: { private: boolean; private_links: unknown[] }) => p.private && p.private_links.length,
  );
  staffRateLink = staffRate.private_links[0].url.replace(/^https?:\/\/[^/]+/, product.joinUrl);
  await context.close();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

let people = 0;
async function phone() {
  // bypassCSP only so axe-core can be injected; the pages themselves run under the site's CSP otherwise.
  const context = await browser.newContext({
    viewport: viewports.phone,
    isMobile: true,
    hasTouch: true,
    bypassCSP: true,
  });
  return context.newPage();
}

const checked: string[] = [];

/** axe-core on the page as it stands: no serious or critical violations. */
async function expectAccessible(page: Page) {
  const violations = serious(await axeViolations(page)).map(
    (v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.targets)}`,
  );
  expect(violations, `${new URL(page.url()).pathname}: ${violations.join("; ")}`).toEqual([]);
  checked.push(new URL(page.url()).pathname);
}

/** Fills the register form; the membership by its visible label. */
async function fillRegister(page: Page, options: { membership: RegExp; dob?: string; email?: string }) {
  people += 1;
  const email = options.email ?? `joiner${people}.${Date.now()}@example.nz`;
  // In the app's form, as the shared steps take it (support/join.ts): typing into the early copy is
  // its own test below. One CI run's "Create account" after typing at once never reached "Verify
  // your email" (30 s), with the simulation beside it.
  await appRegisterForm(page);
  await fillRegisterForm(page, { membership: options.membership, email, dob: options.dob });
  return email;
}

async function verify(page: Page, email: string, before?: string, check = false) {
  try {
    await page.getByRole("heading", { name: "Verify your email" }).waitFor();
  } catch (error) {
    // docs/registration.md "Not done yet": in two loaded runs "Create account" never reached this
    // page. What the page was when this wait gave up, for whoever reads the failure.
    throw new Error(`${(error as Error).message}\nThe page then: ${await registerFormState(page)}`);
  }
  if (check) await expectAccessible(page);
  await verifyEmail(page, product.staffUrl, email, before);
}

/** The register page as it stands: address, how it was loaded, the form's values and what it says. */
async function registerFormState(page: Page): Promise<string> {
  return page
    .evaluate(() => {
      const form = document.querySelector<HTMLFormElement>('form[aria-label="Create your account"]');
      const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      return JSON.stringify({
        url: location.href,
        loaded: navigation?.type,
        loaded_ms_ago: Math.round(performance.now()),
        shell: document.querySelectorAll("[data-shell]").length,
        chosen:
          form?.querySelector('[role="radio"][aria-checked="true"]')?.getAttribute("aria-label") ?? null,
        fields: [...(form?.querySelectorAll<HTMLInputElement>("input:not([type=password])") ?? [])].map(
          (input) => `${input.getAttribute("autocomplete") ?? input.type}=${input.value}`,
        ),
        alerts: [...document.querySelectorAll('[role="alert"], .mantine-InputWrapper-error')].map(
          (el) => el.textContent,
        ),
        height: document.documentElement.scrollHeight,
        body_overflow: getComputedStyle(document.body).overflow,
      });
    })
    .catch((error: Error) => `(could not read it: ${error.message})`);
}

async function addPhoto(page: Page, check = false) {
  await page.getByRole("heading", { name: "Add a profile photo" }).waitFor();
  if (check) await expectAccessible(page);
  await addPhotoStep(page);
  if (check) await expectAccessible(page);
}

/** A new phone opens the gym's link, registers for a membership, passes the emailed code and adds a photo. */
async function newMemberWithPhoto(membership: RegExp) {
  const page = await phone();
  await page.goto(ponsonby);
  const before = await newestMailId(product.staffUrl);
  const email = await fillRegister(page, { membership });
  await page.getByRole("button", { name: "Create account" }).click();
  await verify(page, email, before);
  await addPhoto(page);
  return { page, email };
}

/** From choose-payment-method: the simulated Akahu consent, back on /connect-akahu, the Everyday account. */
async function connectBank(page: Page, check = false) {
  await page.getByRole("button", { name: /^Bank account/ }).click();
  await page.getByRole("link", { name: "Connect Simulated Bank" }).click();
  await page.getByRole("heading", { name: "Connect your bank account" }).waitFor();
  await page.getByRole("radio", { name: "Everyday" }).waitFor();
  if (check) await expectAccessible(page);
  await page.getByRole("radio", { name: "Everyday" }).check();
  await page.getByRole("button", { name: "Use this account" }).click();
  await page.getByRole("heading", { name: "Bank account connected" }).waitFor();
  if (check) await expectAccessible(page);
  await page.getByRole("button", { name: "Continue" }).click();
}

async function confirmAndWelcome(page: Page, bank: boolean) {
  await page.getByRole("heading", { name: "Confirm your membership" }).waitFor();
  await page.getByText("Total").waitFor();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Confirm membership" }).click();
  // Nothing happens until the terms (and for bank, the debit authority) are accepted; each box
  // says what to do (issue 35).
  await page.getByText("Please accept the terms to continue").waitFor();
  expect(await page.getByText("Please authorise the direct debit to continue").count()).toBe(bank ? 1 : 0);
  expect(await page.getByText("Value is required").count()).toBe(0);
  await page.getByLabel(/membership terms/).check();
  if (bank) await page.getByLabel(/authorise .* to debit my bank account/).check();
  await page.getByRole("button", { name: "Confirm membership" }).click();
  await page.getByRole("heading", { name: "Welcome to Harbour Fitness Ponsonby" }).waitFor();
  await expectAccessible(page);
}

describe("joining on a phone", () => {
  it("registers from the gym's link, verifies, adds a photo, pays by bank and is welcomed; leaving and coming back resumes", async () => {
    const page = await phone();
    await page.goto(ponsonby);
    await page.getByRole("banner").getByText("Harbour Fitness Ponsonby").waitFor();
    await page.getByRole("heading", { name: "Become a member", level: 1 }).waitFor();
    // The phone's keyboards: email, phone number.
    expect(await page.getByLabel(/^Email/).getAttribute("inputmode")).toBe("email");
    expect(await page.getByLabel(/^Mobile number/).getAttribute("autocomplete")).toBe("tel");
    // The private staff rate is not offered on the public link.
    expect(await page.getByRole("radio", { name: /\$15\.00 Weekly/ }).count()).toBe(1); // Off-Peak only

    await expectAccessible(page);
    await page.getByRole("button", { name: "Create account" }).click();
    // Polled: the press may land on the early form (index.html's shell) before the app's code is
    // here, and the app answers it when it takes over (src/main.tsx).
    await expect.poll(() => page.getByText("Value is required").count()).toBeGreaterThanOrEqual(4);
    // The page scrolls to the first membership card; the message saying one is missing is in view
    // with it on the phone (issue 35).
    const missing = page.getByText("Choose a membership");
    await missing.waitFor();
    await expect
      .poll(() =>
        missing.evaluate((e) => {
          const box = e.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }),
      )
      .toBe(true);
    await page.screenshot({ path: screenshotPath("join-register-empty-phone") });
    await expectAccessible(page);

    const before = await newestMailId(product.staffUrl);
    const email = await fillRegister(page, { membership: /Anytime Membership: \$24\.00 Weekly/ });
    await page.screenshot({ path: screenshotPath("join-register-phone"), fullPage: true });
    await page.getByRole("button", { name: "Create account" }).click();
    await verify(page, email, before, true);

    // Leave after the code: coming back to the link resumes at the photo.
    await page.getByRole("heading", { name: "Add a profile photo" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/take-photo");
    await page.goto(ponsonby);
    await page.getByRole("heading", { name: "Add a profile photo" }).waitFor();
    await addPhoto(page, true);
    // Closing the tab after the photo and opening the site again lands on choose-payment-method.
    const resumed = await page.context().newPage();
    await page.close();
    await resumed.goto(`${product.joinUrl}/confirm-subscription`);
    await resumed.getByRole("heading", { name: "Choose how to pay" }).waitFor();
    expect(new URL(resumed.url()).pathname).toBe("/choose-payment-method");
    await resumed.screenshot({ path: screenshotPath("join-choose-payment-phone"), fullPage: true });

    await connectBank(resumed, true);
    await confirmAndWelcome(resumed, true);
    await resumed.getByText("First payment $24.00").waitFor();
    await resumed.screenshot({ path: screenshotPath("join-welcome-phone"), fullPage: true });

    // The welcome and the notice of the first debit were emailed.
    const mail = (await (await fetch(`${product.staffUrl}/api/dev/mail`)).json()).data as {
      to: string;
      subject: string;
    }[];
    const subjects = mail.filter((m) => m.to === email).map((m) => m.subject);
    expect(subjects).toContain("Welcome to Harbour Fitness Ponsonby");
    expect(subjects.some((s) => s.startsWith("Notice of your first direct debit"))).toBe(true);

    // On another phone (no session), the member signs in from the gym's link and is back on their welcome page.
    const other = await phone();
    await other.goto(ponsonby);
    await other.getByRole("button", { name: "Already have an account? Sign in" }).click();
    await other.getByRole("heading", { name: "Sign in" }).waitFor();
    await expectAccessible(other);
    const beforeSignIn = await newestMailId(product.staffUrl);
    await other.getByLabel(/^Email/).fill(email);
    await other.getByLabel(/^Password/).fill("a long passphrase");
    await other.getByRole("button", { name: "Sign in" }).click();
    await verify(other, email, beforeSignIn);
    await other.getByRole("heading", { name: "Welcome to Harbour Fitness Ponsonby" }).waitFor();
    await other.context().close();

    // Staff see the new member's first payment.
    const staff = await browser.newContext();
    await signInViaApi(staff, product.staffUrl, "admin@example.com");
    const payments = await (await staff.request.get(`${product.staffUrl}/api/payments?per_page=100`)).json();
    expect(payments.data.some((p: { user: { email: string } }) => p.user.email === email)).toBe(true);
    await staff.close();
  }, 120_000);

  it("pays by card with 4242 4242 4242 4242 through the card form", async () => {
    const { page } = await newMemberWithPhoto(/Anytime Membership: \$46\.00 Fortnightly/);
    await page.getByRole("button", { name: /^Card/ }).click();
    await page.getByRole("heading", { name: "Card details" }).waitFor();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Enter card details" }).click();
    await page.getByLabel("Card number").fill("4242424242424242");
    await page.getByRole("button", { name: "Save card" }).click();
    await page.getByRole("heading", { name: "Card connected" }).waitFor();
    await page.getByText("Visa •••• 4242").waitFor();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("heading", { name: "Confirm your membership" }).waitFor();
    await page.getByText("Card surcharge").waitFor();
    await confirmAndWelcome(page, false);
    // Self-service: from the welcome page the member opens their membership, sees the next
    // payment, reads what cancelling means before confirming, and cancels at the period end.
    await page.getByRole("link", { name: "Manage my membership" }).click();
    await page.getByRole("heading", { name: "My membership", exact: true }).waitFor();
    await page
      .getByTestId("next-payment")
      .getByText(/Next payment \$/)
      .waitFor();
    await expectAccessible(page);
    await page.getByRole("button", { name: "What happens if I cancel?" }).click();
    await page.getByText(/Your last day as a member would be/).waitFor();
    await page.getByText(/no break fee/).waitFor();
    await page.screenshot({ path: screenshotPath("join-membership-cancel-phone"), fullPage: true });
    await page.getByRole("button", { name: "Confirm cancellation" }).click();
    await page
      .getByRole("region", { name: "Your membership" })
      .getByText(/^Last day /)
      .waitFor();
    expect(await page.getByRole("button", { name: "What happens if I cancel?" }).count()).toBe(0);
    // An email confirms it: the last day and how to undo it (issue 35).
    const me = (await (await page.request.get(`${product.joinUrl}/api/me`)).json()).data;
    const mailbox = async () =>
      (
        (await (
          await fetch(`${product.staffUrl}/api/dev/mail?to=${encodeURIComponent(me.email)}`)
        ).json()) as {
          data: { to: string; subject: string; text?: string }[];
        }
      ).data;
    await expect
      .poll(async () =>
        (await mailbox()).some(
          (m) =>
            m.to === me.email &&
            /membership is cancelled$/.test(m.subject) &&
            /Your last day as a member is/.test(m.text ?? ""),
        ),
      )
      .toBe(true);
  }, 120_000);

  it("links the terms and conditions an organisation admin set (https only), in a new tab; staff see the new member's notification switches read-only", async () => {
    const staff = await staffPage(browser, product, "admin@example.com");
    await staff.goto(`${product.staffUrl}/organisation/settings`);
    const joining = staff.getByRole("form", { name: "Joining online" });
    const terms = joining.getByRole("textbox", { name: /Membership terms and conditions/ });
    await terms.fill("harbour.example/terms");
    await joining.getByRole("button", { name: "Save" }).click();
    await joining.getByText("Enter a web address starting with https://").waitFor();
    await terms.fill("https://harbour.example/terms");
    await joining.getByRole("button", { name: "Save" }).click();
    await staff.getByText("Joining online saved").waitFor();
    try {
      const { page } = await newMemberWithPhoto(/Anytime Membership: \$46\.00 Fortnightly/);
      await page.getByRole("button", { name: /^Card/ }).click();
      await page.getByRole("button", { name: "Enter card details" }).click();
      await page.getByLabel("Card number").fill("4242424242424242");
      await page.getByRole("button", { name: "Save card" }).click();
      await page.getByRole("button", { name: "Continue" }).click();
      await page.getByRole("heading", { name: "Confirm your membership" }).waitFor();
      const link = page.getByRole("link", {
        name: /Harbour Fitness Ponsonby's membership terms and conditions/,
      });
      expect(await link.getAttribute("href")).toBe("https://harbour.example/terms");
      expect(await link.getAttribute("target")).toBe("_blank");
      await link.scrollIntoViewIfNeeded();
      await page.screenshot({ path: screenshotPath("join-confirm-terms-link-phone"), fullPage: true });
      await confirmAndWelcome(page, false);

      // The staff member page shows the member's switches, with nothing to change them.
      const me = await (await page.request.get(`${product.joinUrl}/api/me`)).json();
      await staff.goto(`${product.staffUrl}/members/${me.data.id}`);
      const switches = staff.getByRole("region", { name: "Notifications" });
      await switches.getByText("Payment reminders").waitFor();
      expect(await switches.getByText("On", { exact: true }).count()).toBe(3);
      expect(await switches.getByRole("switch").count()).toBe(0);
      await staff.screenshot({ path: screenshotPath("staff-member-notifications"), fullPage: true });
    } finally {
      const orgId = (await (await staff.request.get(`${product.staffUrl}/api/me`)).json()).data
        .current_organisation.id;
      await staff.request.put(`${product.staffUrl}/api/organisations/${orgId}/registration-settings`, {
        headers: { "X-Requested-With": "XMLHttpRequest" },
        data: { min_registration_age: 16, terms_url: null },
      });
      await staff.context().close();
    }
  }, 180_000);

  it("a card that declines (4000 0000 0000 0341): the member sees the failure after the first charge and adds another card", async () => {
    const { page } = await newMemberWithPhoto(/Anytime Membership: \$24\.00 Weekly/);
    await page.getByRole("button", { name: /^Card/ }).click();
    await page.getByRole("button", { name: "Enter card details" }).click();
    await page.getByLabel("Card number").fill("4000000000000341");
    await page.getByRole("button", { name: "Save card" }).click();
    await page.getByRole("heading", { name: "Card connected" }).waitFor();
    await page.getByRole("button", { name: "Continue" }).click();
    await confirmAndWelcome(page, false);
    expect(await page.getByText("Your payment did not go through").count()).toBe(0);

    // The first payment falls due today: the billing run charges it and the card declines.
    const run = await fetch(`${product.staffUrl}/api/dev/jobs/billing-run`, {
      method: "POST",
      headers: { "X-Requested-With": "XMLHttpRequest" },
    });
    expect(run.status).toBe(200);
    await page.reload();
    await page.getByText("Your payment did not go through").waitFor();
    await page.getByText(/Your payment of \$24\.\d\d was declined/).waitFor();
    await expectAccessible(page);

    await page.getByRole("button", { name: "Update how I pay" }).click();
    await page.getByRole("button", { name: /^Card/ }).click();
    await page.getByRole("button", { name: "Enter card details" }).click();
    await page.getByLabel("Card number").fill("4242424242424242");
    await page.getByRole("button", { name: "Save card" }).click();
    // The new card is the default and the owed payment is retried with it at once: the page says
    // the card changed and that what was owed is paid, and offers no "Continue" (issue 35).
    await page.getByRole("heading", { name: "Card changed" }).waitFor();
    await page.getByText(/^The \$24\.\d\d you owed has been paid with this card\.$/).waitFor();
    expect(await page.getByRole("button", { name: "Continue" }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath("join-card-replaced-phone"), fullPage: true });
    await page.getByRole("link", { name: "Back to my membership" }).click();
    await page.waitForURL(/\/membership$/);
    await page.goto(`${product.joinUrl}/welcome-to-gym`);
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole("heading", { name: "Welcome to Harbour Fitness Ponsonby" }).waitFor();
          return page.getByText("Your payment did not go through").count();
        },
        { timeout: 15_000 },
      )
      .toBe(0);
  }, 120_000);

  it("refuses an applicant under 16, and accepts them through an age-bypass link", async () => {
    const page = await phone();
    await page.goto(ponsonby);
    const young = new Date();
    young.setFullYear(young.getFullYear() - 15);
    const dob = `${young.getDate()}/${String(young.getMonth() + 1).padStart(2, "0")}/${young.getFullYear()}`;
    const email = await fillRegister(page, { membership: /Anytime Membership: \$24\.00 Weekly/, dob });
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("You must be at least 16 years old to join. Please ask the gym for help.").waitFor();

    const staff = await browser.newContext();
    await signInViaApi(staff, product.staffUrl, "admin@example.com");
    const me = await (await staff.request.get(`${product.staffUrl}/api/me`)).json();
    const link = await (
      await staff.request.post(
        `${product.staffUrl}/api/organisations/${me.data.current_organisation.id}/age-bypass-links`,
        { headers: { "X-Requested-With": "XMLHttpRequest" } },
      )
    ).json();
    await staff.close();
    const token = new URL(link.data.url).searchParams.get("age_bypass")!;

    const bypass = await phone();
    await bypass.goto(`${ponsonby}&age_bypass=${encodeURIComponent(token)}`);
    const before = await newestMailId(product.staffUrl);
    await fillRegister(bypass, { membership: /Anytime Membership: \$24\.00 Weekly/, dob, email });
    await bypass.getByRole("button", { name: "Create account" }).click();
    await verify(bypass, email, before);
    await bypass.getByRole("heading", { name: "Add a profile photo" }).waitFor();
  }, 120_000);

  it("opens a private price link with its price chosen", async () => {
    const page = await phone();
    await page.goto(staffRateLink);
    await page
      .getByRole("banner")
      .getByText(/^Harbour Fitness/)
      .waitFor();
    expect(
      await page
        .getByRole("radio", { name: /\$15\.00 Weekly/ })
        .first()
        .isChecked(),
    ).toBe(true);
    await page.getByText("Special offer").waitFor();
  }, 60_000);

  it("paints the register page before any script has run, where the app then keeps it, and only on /", async () => {
    const page = await phone();
    // Scripts held back: what a phone shows while the JavaScript downloads (index.html's shell).
    await page.route("**/*.js", (route) => route.abort());
    await page.goto(ponsonby);
    const heading = page.getByRole("heading", { name: "Become a member", level: 1 });
    const intro = page.getByText("Choose your membership and create your account. It takes a few minutes.");
    expect(await heading.isVisible()).toBe(true);
    const early = { heading: await heading.boundingBox(), intro: await intro.boundingBox() };
    expect(early.intro?.height).toBeGreaterThan(0);
    await expectAccessible(page);
    // Any other page is not the register page while its script downloads (it is served app.html).
    await page.goto(`${product.joinUrl}/take-photo`);
    expect(await page.getByRole("heading").count()).toBe(0);

    // With the app: the same heading and introduction in the same place, the gym's name and its
    // memberships once they arrive, and the prerendered copy gone (not shown twice).
    await page.unroute("**/*.js");
    await page.goto(ponsonby);
    await page.getByRole("banner").getByText("Harbour Fitness Ponsonby").waitFor();
    await page.getByRole("radio").first().waitFor();
    // The shell draws the gym's memberships too (register-shell.js): wait for the app's form.
    await page.locator('form[aria-label="Create your account"]:not([data-shell-form])').waitFor();
    expect(await heading.boundingBox()).toEqual(early.heading);
    expect(await intro.boundingBox()).toEqual(early.intro);
    expect(await page.locator("[data-shell]").count()).toBe(0);
    expect(await page.getByRole("heading", { level: 1 }).count()).toBe(1);
  }, 60_000);

  it("takes a membership and typing before the app's code is here, and the app's form keeps them", async () => {
    const page = await phone();
    // The app's code held back until the person has chosen and typed (a slow phone's download).
    const release = await holdAppCode(page);
    const log: string[] = [];
    page.on("console", (message) => log.push(message.text()));
    page.on("response", (response) => log.push(`${response.status()} ${response.url()}`));
    page.on("requestfailed", (request) =>
      log.push(`failed ${request.url()} ${request.failure()?.errorText}`),
    );
    await page.goto(ponsonby, { waitUntil: "commit" });
    await page
      .locator("[data-shell-form]:visible")
      .waitFor({ timeout: 20_000 })
      .catch((error) => {
        throw new Error(`the shell's form did not show: ${log.join("\n")}`, { cause: error });
      });
    const shellForm = page.locator('form[aria-label="Create your account"][data-shell-form]');
    await shellForm.getByRole("radio", { name: /Anytime Membership: \$24\.00 Weekly/ }).check();
    await shellForm.getByLabel(/^Email/).fill("early@example.com");
    await shellForm.getByLabel(/^Full name/).fill("Early Bird");
    // The shell's dates are day first too (issue 35): the start date today, the date of birth typed so.
    expect(await shellForm.getByLabel(/^Start date/).inputValue()).toMatch(/^[1-9]\d?\/\d{2}\/\d{4}$/);
    await shellForm.getByLabel(/^Date of birth/).fill("15/03/1990");
    expect(await page.locator('input[type="date"]').count()).toBe(0);
    await expectAccessible(page);
    await release();

    const form = page.locator('form[aria-label="Create your account"]:not([data-shell-form])');
    await form.waitFor();
    await expect.poll(() => form.getByLabel(/^Email/).inputValue()).toBe("early@example.com");
    expect(await form.getByLabel(/^Full name/).inputValue()).toBe("Early Bird");
    expect(await form.getByLabel(/^Date of birth/).inputValue()).toBe("15/03/1990");
    expect(await form.getByRole("radio", { name: /Anytime Membership: \$24\.00 Weekly/ }).isChecked()).toBe(
      true,
    );
    expect(await page.locator("[data-shell]").count()).toBe(0);
    await page.context().close();
  }, 60_000);

  it("a press of Create account before the app's code is here is answered once it is", async () => {
    const page = await phone();
    // The app's code held back while the person presses the early form's button (a slow phone).
    const release = await holdAppCode(page);
    await page.goto(ponsonby, { waitUntil: "commit" });
    await page.locator("[data-shell-form]:visible").waitFor({ timeout: 20_000 });
    const shellForm = page.locator('form[aria-label="Create your account"][data-shell-form]');
    await shellForm.getByLabel(/^Email/).fill("pressed-early@example.com");
    await shellForm.getByRole("button", { name: "Create account" }).click();
    await release();

    // The app answers the press as its own: the empty fields say so, the email typed is kept.
    const form = page.locator('form[aria-label="Create your account"]:not([data-shell-form])');
    await form.waitFor();
    await expect.poll(() => form.getByText("Value is required").count()).toBeGreaterThanOrEqual(3);
    await page.getByText("Choose a membership").waitFor();
    expect(await form.getByLabel(/^Email/).inputValue()).toBe("pressed-early@example.com");
    await page.context().close();
  }, 60_000);

  it("a past member signs in from the gym's link, chooses a new membership and is welcomed again", async () => {
    const { page, email } = await newMemberWithPhoto(/Anytime Membership: \$24\.00 Weekly/);
    await connectBank(page);
    await confirmAndWelcome(page, true);
    const first = (await (await page.context().request.get(`${product.joinUrl}/api/me/registration`)).json())
      .data.subscription.id as string;
    await page.context().close();

    // The gym ends the membership at once.
    const staff = await browser.newContext();
    await signInViaApi(staff, product.staffUrl, "admin@example.com");
    const cancel = await staff.request.post(`${product.staffUrl}/api/subscriptions/${first}/cancel`, {
      data: { immediate: true },
      headers: { "X-Requested-With": "XMLHttpRequest" },
    });
    expect(cancel.status()).toBe(200);

    // Months later, on their phone: the gym's link, sign in, and choose again.
    const back = await phone();
    await back.goto(ponsonby);
    // The app's form, not the early one index.html paints: the email check runs when the app's
    // email field loses focus (what was typed in the early form is carried over, not re-checked).
    await back.locator('form[aria-label="Create your account"]:not([data-shell-form])').waitFor();
    await back.getByLabel(/^Email/).fill(email);
    await back.getByLabel(/^Full name/).click();
    await back.getByText("Welcome back! You already have an account with us. Sign in to rejoin.").waitFor();
    await back.getByRole("button", { name: "Already have an account? Sign in" }).click();
    const beforeSignIn = await newestMailId(product.staffUrl);
    await back.getByLabel(/^Email/).fill(email);
    await back.getByLabel(/^Password/).fill("a long passphrase");
    await back.getByRole("button", { name: "Sign in" }).click();
    await verify(back, email, beforeSignIn);
    await back.getByRole("heading", { name: "Welcome back, Aroha" }).waitFor();
    expect(new URL(back.url()).pathname).toBe("/rejoin");
    await expectAccessible(back);
    await back.screenshot({ path: screenshotPath("join-rejoin-phone"), fullPage: true });
    await back.getByRole("radio", { name: /Off-Peak.*\$15\.00 Weekly/ }).check();
    await back.getByRole("button", { name: "Continue" }).click();
    // Their photo and bank account are kept: straight to confirming the new membership.
    await back.getByRole("heading", { name: "Confirm your membership" }).waitFor();
    await back.getByText("Off-Peak").first().waitFor();
    await back.screenshot({ path: screenshotPath("join-rejoin-confirm-phone"), fullPage: true });
    await confirmAndWelcome(back, true);

    const state = (await (await back.context().request.get(`${product.joinUrl}/api/me/registration`)).json())
      .data;
    expect(state.subscription.id).not.toBe(first);
    expect(state.subscription.price.offering.name).toBe("Off-Peak");
    await staff.close();
    await back.context().close();
  }, 120_000);

  // Last: the tests above pass through every page of the join site (run alone, a test does not).
  it("checked every join page with axe-core on the way", () => {
    expect(new Set(checked)).toEqual(
      new Set([
        "/",
        "/verification-code",
        "/take-photo",
        "/choose-payment-method",
        "/connect-akahu",
        "/bank-account-connected",
        "/confirm-subscription",
        "/welcome-to-gym",
        "/card-details",
        "/card-connected",
        "/membership",
        "/rejoin",
      ]),
    );
  });
});
