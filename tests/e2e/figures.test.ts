import { describe, expect, it } from "vitest";
import { screenshotPath, signInViaApi, staffPage, useProductAndBrowser } from "../support/e2e";
import { harbourOfProduct } from "../support/payments";

// Its own product: its billing run charges what is due today, the demo's members included.
const e2e = useProductAndBrowser({}, { own: true });

/**
 * Issue 34: one figure for one money event, wherever it is read. A card member inside their
 * 12-month term, after cooling-off, is cancelled at the desk: the cancel dialog's confirm button,
 * the membership card, the receipt email in the local mailbox and the receipt page all show the
 * break fee as charged (surcharge included), and it is what the billing run takes.
 */
describe("the break fee is one figure: dialog, page, email and receipt", () => {
  it("a term member cancelled after cooling-off: the same total everywhere", async () => {
    const { product, browser } = e2e;
    const { identity, offerings } = await harbourOfProduct(product.dynamoPort);
    const gymId = identity.gyms.ponsonby.gym_id;
    const { createSubscription } = await import("../../packages/core/src/subscription/service");
    const { db } = await import("../../packages/core/src/db/service");
    const { findSubscription } = await import("../../packages/core/src/subscription/store");
    const { createUser } = await import("../../packages/core/src/user/service");
    const { putRole } = await import("../../packages/core/src/user/roles");
    const organisationId = identity.organisations.harbour.organisation_id;
    const email = `figures-${Date.now()}@example.net`;
    const user = await createUser({
      email,
      name: "Fig Termmember",
      email_verified: true,
      password: "demo-password",
    });
    await putRole({ organisation_id: organisationId, user_id: user.user_id, member_gym_ids: [gymId] });
    // The member saves a Visa through the join site's API and the simulated card form, as on a phone.
    const memberContext = await browser.newContext();
    await signInViaApi(memberContext, product.joinUrl, email);
    const headers = { "X-Requested-With": "XMLHttpRequest" };
    const setup = (await (
      await memberContext.request.post(`${product.joinUrl}/api/me/payment-types/card/setup`, { headers })
    ).json()) as { data: { setup_intent_id: string; client_secret: string; stripe_account: string } };
    const confirmed = await memberContext.request.post(`${product.joinUrl}/api/dev/stripe/setup/confirm`, {
      headers,
      data: {
        account: setup.data.stripe_account,
        setup_intent: setup.data.setup_intent_id,
        client_secret: setup.data.client_secret,
        return_url: `${product.joinUrl}/card-details`,
        number: "4242424242424242",
      },
    });
    expect(confirmed.status(), await confirmed.text()).toBe(200);
    const saved = await memberContext.request.post(`${product.joinUrl}/api/me/payment-types/card`, {
      headers,
      data: { setup_intent_id: setup.data.setup_intent_id },
    });
    expect(saved.status(), await saved.text()).toBe(201);
    await memberContext.close();
    const { subscription } = await createSubscription({
      organisation_id: organisationId,
      user_id: user.user_id,
      gym_id: gymId,
      price_id: offerings.prices.anytimeTerm.price_id,
    });
    // Joined a while ago: the cooling-off period is over (the one fact moved to reach that state).
    await db()
      .entities.subscription.patch({
        organisation_id: organisationId,
        subscription_id: subscription.subscription_id,
      })
      .set({ cooling_period_ends_at: new Date(Date.now() - 86_400_000).toISOString() })
      .go();

    const page = await staffPage(browser, product, "admin@example.com");
    await page.goto(`${product.staffUrl}/members/${user.user_id}`);
    const card = page.getByRole("region", { name: "Membership" });
    await card.getByRole("button", { name: "Cancel", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel membership" });
    const confirm = dialog.getByRole("button", { name: /^Cancel and charge \$/ });
    await confirm.waitFor({ timeout: 20_000 });
    // The dialog: the fee, its card surcharge, and the total on the button.
    const total = ((await confirm.innerText()).match(/\$[\d,]+\.\d\d/) ?? [""])[0];
    expect(total).not.toBe("");
    await dialog
      .getByText(new RegExp(`card surcharge: the member pays \\${total} from Visa •••• 4242`))
      .waitFor();
    await page.screenshot({ path: screenshotPath("figures-cancel-dialog"), fullPage: true });
    await confirm.click();
    await dialog.waitFor({ state: "hidden" });

    // The page: the membership card quotes the break fee at the same total.
    await card.getByText("Break fee").first().waitFor();
    await card.getByText(new RegExp(`^\\${total} on `)).waitFor();

    const mails = async () =>
      (
        (await (await fetch(`${product.staffUrl}/api/dev/mail`)).json()) as {
          data: { to: string; subject: string; text: string }[];
        }
      ).data.filter((m) => m.to === email);
    // The cancellation email states the same all-in total (issue 34 tour item 1) and the same last
    // day the card shows: "Cancelling", not "Cancelled", while it runs (tour items 3 and 7).
    // textContent, not innerText: the badge is shown in capitals (CSS), its text is not.
    const badge = (await card.getByText(/^Cancelling: last day \d{1,2}\/\d\d\/\d{4}$/).textContent()) ?? "";
    const [d, m, y] = (badge.match(/(\d{1,2})\/(\d\d)\/(\d{4})/) ?? []).slice(1).map(Number);
    const lastDay = new Date(Date.UTC(y, m - 1, d)).toLocaleDateString("en-NZ", {
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    });
    await expect
      .poll(async () => (await mails()).find((m) => /membership is cancelled/.test(m.subject))?.text ?? "", {
        timeout: 20_000,
      })
      .toContain(`A break fee of ${total} is due today`);
    const told = (await mails()).find((m) => /membership is cancelled/.test(m.subject))?.text ?? "";
    expect(told).toContain(`Your last day as a member is`);
    expect(told).toContain(lastDay);

    // The billing run charges it (due today); the receipt email says the same total.
    const run = await fetch(`${product.staffUrl}/api/dev/jobs/billing-run`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Requested-With": "XMLHttpRequest" },
    });
    expect(run.status).toBe(200);
    // The simulated Stripe settles what it was asked now (its webhook, in-process, issues the receipt).
    const settle = () =>
      fetch(`${product.staffUrl}/api/dev/providers/settle`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Requested-With": "XMLHttpRequest" },
      });
    await expect
      .poll(
        async () => {
          await settle();
          return (await mails()).map((m) => m.subject).join(" | ");
        },
        {
          timeout: 60_000,
        },
      )
      .toContain(`${total} paid to`);

    // The receipt page: the total paid is the same figure.
    const feeId = (await findSubscription(organisationId, subscription.subscription_id))
      ?.break_fee_payment_id;
    expect(feeId).toBeTruthy();
    await page.goto(`${product.staffUrl}/payments/${feeId}/receipt`);
    await page.getByText("Total paid").waitFor();
    await page.getByText(total, { exact: true }).first().waitFor();
    await page.getByText("Card surcharge").waitFor();
    await page.screenshot({ path: screenshotPath("figures-break-fee-receipt"), fullPage: true });
  }, 240_000);
});
