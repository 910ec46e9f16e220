import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  holdAppCode,
  latestCodeFor,
  newestMailId,
  screenshotPath,
  useProductAndBrowser,
  viewports,
} from "../support/e2e";

// Its own product: it resets a demo person's password and signs the admin in through the form (codes are limited per hour).
const e2e = useProductAndBrowser({}, { own: true });

/** Sign-in, two-factor, switching and sign-out through the UI; forgot and reset password from the email. */

async function signInForm(page: Page, email: string, password: string) {
  await page.getByRole("textbox", { name: /^Email/ }).fill(email);
  await page.getByRole("textbox", { name: /^Password/ }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function typeCode(page: Page, code: string) {
  const first = page.getByRole("textbox", { name: "Digit 1 of the sign-in code" });
  await first.click();
  await page.keyboard.type(code);
}

interface Mail {
  id: string;
  to: string;
  subject: string;
  text?: string;
}

async function resetLinkFor(email: string, after?: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = ((await (await fetch(`${e2e.product.staffUrl}/api/dev/mail`)).json()) as { data: Mail[] })
      .data;
    const message = mail.find((m) => m.to === email && /reset/i.test(m.subject) && (!after || m.id > after));
    const link = message?.text?.match(/https?:\/\/\S+\/reset-password\?token=\S+/)?.[0];
    if (link) return link;
    if (Date.now() > deadline) throw new Error(`No reset link emailed to ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("signing in on the staff site", () => {
  it("signs the demo admin in with the emailed code, switches gym and organisation, and signs out", async () => {
    const context = await e2e.browser.newContext({ viewport: viewports.desktop });
    const page = await context.newPage();

    await page.goto(`${e2e.product.staffUrl}/members`);
    await page.waitForURL(/\/login\?redirect=%2Fmembers$/);
    await page.screenshot({ path: screenshotPath("auth-login-desktop") });

    // A wrong password is refused with the server's words.
    await signInForm(page, "admin@example.com", "not-the-password");
    await expect
      .poll(() => page.getByRole("alert").first().textContent())
      .toContain("These credentials do not match our records.");

    const before = await newestMailId(e2e.product.staffUrl);
    await signInForm(page, "admin@example.com", "demo-password");
    await page.waitForURL(/\/two-factor-authentication\?redirect=%2Fmembers$/);
    await page.getByText("admin@example.com").waitFor();
    const code = await latestCodeFor(e2e.product.staffUrl, "admin@example.com", before);

    // A wrong code says how many tries are left; the right one finishes the sign-in.
    const wrong = code.replace(/^./, (d) => String((Number(d) + 1) % 10));
    await typeCode(page, wrong);
    await page.getByText("That code is not right. 4 tries left.").waitFor();
    await page.screenshot({ path: screenshotPath("auth-two-factor-desktop") });
    await typeCode(page, code);
    await page.waitForURL(/\/members$/);
    await page.getByRole("heading", { name: "Members" }).waitFor();

    // The dashboard greets the person and says where they are working.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole("heading", { level: 1, name: /, Avery$/ }).waitFor();
    const gymButton = page.getByRole("button", { name: /^Gym:/ });
    const startGym = (await gymButton.textContent()) ?? "";
    expect(startGym).toMatch(/Harbour Fitness (Ponsonby|Newmarket)/);
    await page.screenshot({ path: screenshotPath("shell-dashboard-desktop") });

    // Gym switcher: the other gym, then the page reloads with it.
    await gymButton.click();
    await page.getByRole("menuitemradio", { checked: false }).first().click();
    await page.getByText("Gym switched").waitFor();
    await expect.poll(() => gymButton.textContent()).not.toBe(startGym);

    // Organisation switcher from another page: lands on the dashboard of the new organisation.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Payments" }).click();
    await page.waitForURL(/\/payments$/);
    await page.getByRole("button", { name: /^Organisation:/ }).click();
    await page.getByRole("menuitemradio", { name: "Kiwi CrossFit" }).click();
    await page.waitForURL(/\/dashboard$/);
    await expect
      .poll(() => page.getByRole("button", { name: /^Organisation:/ }).textContent())
      .toContain("Kiwi CrossFit");
    // Kiwi CrossFit has one gym: no gym switcher.
    await expect.poll(() => page.getByRole("button", { name: /^Gym:/ }).count()).toBe(0);

    // Logout ends the session: the dashboard now asks to sign in.
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(/\/login$/);
    await page.goto(`${e2e.product.staffUrl}/dashboard`);
    await page.waitForURL(/\/login\?redirect=%2Fdashboard$/);
    await context.close();
  });

  it("resets a forgotten password from the emailed link once, and refuses the link a second time", async () => {
    const context = await e2e.browser.newContext({ viewport: viewports.desktop });
    const page = await context.newPage();
    const email = "owner@example.org";

    await page.goto(`${e2e.product.staffUrl}/login`);
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL(/\/forgot-password$/);
    const before = await newestMailId(e2e.product.staffUrl);
    await page.getByRole("textbox", { name: /^Email/ }).fill(email);
    await page.getByRole("button", { name: "Email me a reset link" }).click();
    await page.getByText(/If an account exists for that email/).waitFor();

    const link = await resetLinkFor(email, before);
    await page.goto(link);
    const password = page.getByRole("textbox", { name: /^New password/ });
    const confirmation = page.getByRole("textbox", { name: /^Confirm new password/ });
    await password.fill("short");
    await confirmation.fill("different");
    await page.getByRole("button", { name: "Save new password" }).click();
    await page.getByText("Use at least 10 characters").waitFor();
    await page.getByText("The value must be equal to the other value").waitFor();
    await page.screenshot({ path: screenshotPath("auth-reset-password-desktop") });

    await password.fill("a fresh harbour passphrase");
    await confirmation.fill("a fresh harbour passphrase");
    await page.getByRole("button", { name: "Save new password" }).click();
    await page.waitForURL(/\/login\?email=owner%40example\.org$/);
    await page.getByText("Your password is set. Sign in with it now.").waitFor();

    // The new password works (the old one no longer does).
    await page.getByRole("textbox", { name: /^Password/ }).fill("a fresh harbour passphrase");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/two-factor-authentication$/);

    // The same link a second time: expired or used.
    const again = await e2e.browser.newPage({ viewport: viewports.desktop });
    await again.goto(link);
    await again.getByRole("heading", { name: "This link has expired or was already used" }).waitFor();
    await again.getByRole("link", { name: "Request a new link" }).waitFor();
    await again.screenshot({ path: screenshotPath("auth-dead-link-desktop") });
    await again.close();
    await context.close();
  });

  it("answers a Sign in pressed, or Enter, on the early form before the app's code is here", async () => {
    for (const press of ["the button", "Enter"] as const) {
      const page = await e2e.browser.newPage({ viewport: viewports.phone });
      // The app's code held back while the person signs in on index.html's early form (a slow phone).
      const release = await holdAppCode(page);
      await page.goto(`${e2e.product.staffUrl}/login`, { waitUntil: "commit" });
      const early = page.locator('form[aria-label="Sign in"][data-shell-form]');
      await early.waitFor();
      // The early script (login-shell.js, in the head) is here: a person needs longer than its
      // one request to type an email and password.
      await page.waitForFunction(() =>
        performance.getEntriesByType("resource").some((entry) => entry.name.endsWith("/login-shell.js")),
      );
      await early.getByLabel(/^Email/).fill("nobody-early@example.com");
      await early.getByLabel(/^Password/).fill("not-the-password");
      if (press === "Enter") await early.getByLabel(/^Password/).press("Enter");
      else await early.getByRole("button", { name: "Sign in" }).click();
      // Seen to be on its way while the app's code is still coming.
      await early.getByRole("button", { name: "Signing in…" }).waitFor();
      await release();

      // The app sends the sign-in as its own, with what was typed, and shows the server's answer.
      const form = page.locator('form[aria-label="Sign in"]:not([data-shell-form])');
      await form.waitFor();
      await expect
        .poll(() => page.getByRole("alert").first().textContent(), { message: `pressed with ${press}` })
        .toContain("These credentials do not match our records.");
      expect(await form.getByLabel(/^Email/).inputValue()).toBe("nobody-early@example.com");
      await page.close();
    }
  });

  it("keeps every key typed across the moment the app takes over the early form", async () => {
    const page = await e2e.browser.newPage({ viewport: viewports.phone });
    const release = await holdAppCode(page);
    await page.goto(`${e2e.product.staffUrl}/login`, { waitUntil: "commit" });
    const early = page.locator('form[aria-label="Sign in"][data-shell-form]');
    await early.getByLabel(/^Email/).click();
    // Typed one key after another while the app's code arrives and replaces the early form, and
    // for a few keys after.
    let email = "someone";
    await page.keyboard.type(email);
    await release();
    let after = 0;
    for (let key = 0; after < 6 && key < 400; key += 1) {
      const next = String.fromCharCode(97 + (key % 26));
      await page.keyboard.type(next);
      email += next;
      if ((await page.locator("[data-shell]").count()) === 0) after += 1;
      await page.waitForTimeout(15);
    }
    email += "@example.com";
    await page.keyboard.type("@example.com");
    const form = page.locator('form[aria-label="Sign in"]:not([data-shell-form])');
    expect(await form.getByLabel(/^Email/).inputValue()).toBe(email);
    await page.close();
  });

  it("shows the sign-in, privacy policy and contact pages on a phone", async () => {
    const page = await e2e.browser.newPage({ viewport: viewports.phone });
    await page.goto(`${e2e.product.staffUrl}/login`);
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.screenshot({ path: screenshotPath("auth-login-phone") });
    await page.getByRole("link", { name: "Privacy policy" }).click();
    await page.getByRole("heading", { level: 1, name: "Privacy policy" }).waitFor();
    await page.getByText("Privacy Act 2020").first().waitFor();
    await page.screenshot({ path: screenshotPath("public-privacy-phone") });
    await page.getByRole("link", { name: "Contact us" }).first().click();
    await page.getByRole("heading", { level: 1, name: "Contact us" }).waitFor();
    await page.screenshot({ path: screenshotPath("public-contact-phone"), fullPage: true });
    await page.close();
  });
});
