/**
 * Every email rendered for one fixture member: the subject and plain-text part as a snapshot a
 * person can read (email/__snapshots__/emails.test.ts.snap), and the HTML part checked for the
 * layout (the gym's name, logo, reply-to, the same words).
 */
import { describe, expect, it } from "vitest";
import { codeEmail, inviteEmail, joinCodeEmail, memberCodeEmail, resetEmail } from "../auth/emails";
import { cardExpiryEmail, paymentReminderEmail, trialEndingEmail } from "../notice/emails";
import {
  cancelledForNonPaymentEmail,
  finalNoticeEmail,
  paymentFailedEmail,
  reconsentEmail,
} from "../payment/emails";
import { quoteOf } from "../payment/quote";
import { pifInviteEmail } from "../pif/emails";
import { receiptEmail } from "../receipt/emails";
import { firstDebitEmail, welcomeEmail } from "../registration/emails";
import { cancellationEmail } from "../subscription/operations/cancellation-email";
import { priceChangeEmail } from "../subscription/operations/price-change-email";
import { emailDate, firstName } from "./format";
import type { Email } from "./port";
import { renderEmail } from "./port";

const rates = { card_surcharge_basis_points: 250, card_surcharge_fixed_cents: 30 };
const member = { to: "mary@example.com", name: "mary-jane o'neil" };
const brand = {
  name: "Harbour Fitness Ponsonby",
  logo_url: "https://join.example.com/api/files/logos/o/g/abc.png",
  reply_to: "hello@harbour.example.com",
};

export const fixtures: Record<string, Email> = {
  "sign-in code": codeEmail(member.to, "Mary-Jane O'Neil", "123456"),
  "member's sign-in code": memberCodeEmail(member.to, "Mary-Jane O'Neil", "123456", brand),
  "joining code": joinCodeEmail(member.to, "Mary-Jane O'Neil", "123456", brand),
  "password reset": resetEmail(member.to, "Mary-Jane O'Neil", "token-1"),
  "staff invitation": inviteEmail(member.to, "Mary-Jane O'Neil", "Harbour Fitness", "token-2"),
  "pay-in-full invitation": pifInviteEmail(member.to, "Mary-Jane O'Neil", brand, "token-3"),
  "pay-in-full invitation, bank transfer awaited": pifInviteEmail(
    member.to,
    "Mary-Jane O'Neil",
    brand,
    "token-3",
    null,
    {
      quote: quoteOf({
        kind: "awaiting_transfer",
        amount: 29_900,
        credit_balance: 0,
        balance_owing: 29_900,
        method: { type: "bank_transfer" },
        rates: { card_surcharge_basis_points: 250, card_surcharge_fixed_cents: 30 },
        gym: {},
        due_on: "2026-12-01",
      }),
      account: { name: "Harbour Fitness Ponsonby Ltd", bank_account_number: "12-3140-0171323-50" },
    },
  ),
  welcome: welcomeEmail({
    ...member,
    brand,
    membership: "Unlimited (Weekly $24.00)",
    start_date: "2026-12-01",
    first: { total: 2436, due_on: "2026-12-01" },
  }),
  "welcome, with a free trial": welcomeEmail({
    ...member,
    brand,
    membership: "Unlimited (Weekly $24.00)",
    start_date: "2026-12-01",
    first: { total: 0, due_on: "2026-12-01" },
    trial: { last_day: "2026-12-07", total: 0 },
  }),
  "trial ending": trialEndingEmail({
    ...member,
    brand,
    quote: quoteOf({
      kind: "next_payment",
      amount: 2400,
      credit_balance: 0,
      balance_owing: 0,
      method: { type: "stripe_card", last_four: "4242" },
      rates,
      gym: {},
      due_on: "2026-12-08",
    }),
    last_day: "2026-12-07",
    due_on: "2026-12-08",
    method: "from your card ending 4242",
  }),
  "first direct debit": firstDebitEmail({
    ...member,
    brand,
    total: 2400,
    due_on: "2026-12-01",
    amount: 2400,
  }),
  "failed payment": paymentFailedEmail({
    ...member,
    gym: brand.name,
    amount: 2436,
    reason: "Your card was declined",
    hard: false,
    nextRetryOn: "2026-12-04",
    graceEndsAt: "2026-12-15T11:00:00.000Z",
  }),
  "final notice": finalNoticeEmail({
    ...member,
    gym: brand.name,
    balance: 4872,
    graceEndsAt: "2026-12-15T11:00:00.000Z",
  }),
  "cancellation with a break fee": cancellationEmail({
    member_name: member.name,
    member_email: member.to,
    gym_name: brand.name,
    gym_ref: { organisation_id: "o", gym_id: "g" },
    today: "2026-12-10",
    effective: "2026-12-15",
    undo_until: "2026-12-15",
    in_cooling_off: false,
    break_fee: quoteOf({
      kind: "break_fee",
      amount: 16500,
      credit_balance: 0,
      balance_owing: 0,
      method: { type: "stripe_card", card_type: "visa", last_four: "4242" },
      rates,
      gym: {},
      due_on: "2026-12-10",
    }),
    break_fee_basis_points: 2500,
    remaining_term_value: 66000,
  }),
  "cancelled for non-payment": cancelledForNonPaymentEmail({ ...member, gym: brand.name, balance: 4872 }),
  "re-consent": reconsentEmail({
    ...member,
    gym: brand.name,
    reason: "Your bank connection expired.",
  }),
  "price change": priceChangeEmail({
    member_name: member.name,
    member_email: member.to,
    gym_name: brand.name,
    offering_name: "Unlimited",
    to_offering_name: "Unlimited",
    billing_frequency: "weekly",
    from_amount: 2400,
    to_amount: 2600,
    from_label: "$24.00 Weekly",
    to_label: "$26.00 Weekly",
    term: null,
    effective: "2027-01-04",
    reply_to: brand.reply_to,
  }),
  receipt: receiptEmail({
    to: member.to,
    brand,
    receipt: {
      payment_id: "01PAYMENT",
      number: "000042",
      title: "Tax invoice",
      date: "2026-12-01",
      issued_at: "2026-12-01T09:00:00.000Z",
      supplier: { legal_name: "Harbour Fitness Limited", trading_name: brand.name, gst_number: "49-091-850" },
      customer: { name: "Mary-Jane O'Neil", email: member.to },
      description: "Unlimited membership (Weekly $24.00)",
      period: { start: "2026-12-01", end: "2026-12-07" },
      lines: [
        { label: "Unlimited membership (Weekly $24.00)", amount: 2400, formatted_amount: "$24.00" },
        { label: "Card surcharge", amount: 90, formatted_amount: "$0.90" },
      ],
      total: 2490,
      formatted_total: "$24.90",
      gst_included: 325,
      formatted_gst_included: "$3.25",
      payment_method: "Card",
    },
  }),
  "payment reminder": paymentReminderEmail({
    ...member,
    user_id: "01USER",
    brand,
    quote: quoteOf({
      kind: "next_payment",
      amount: 2400,
      credit_balance: 0,
      balance_owing: 0,
      method: { type: "stripe_card", last_four: "4242" },
      rates,
      gym: {},
      due_on: "2026-12-08",
    }),
    due_on: "2026-12-08",
    method: "from your card ending 4242",
    why: null,
    last_total: 2490,
    replaces: null,
  }),
  "payment reminder, amount changed": paymentReminderEmail({
    ...member,
    user_id: "01USER",
    brand,
    quote: quoteOf({
      kind: "next_payment",
      amount: 2600,
      credit_balance: 0,
      balance_owing: 0,
      method: { type: "bank_account", account_number: "12-3456-0123456-00" },
      rates,
      gym: {},
      due_on: "2027-01-04",
    }),
    due_on: "2027-01-04",
    method: "by direct debit from your bank account",
    why: "changed",
    last_total: 2400,
    replaces: null,
  }),
  "payment reminder, updated after a credit": paymentReminderEmail({
    ...member,
    user_id: "01USER",
    brand,
    quote: quoteOf({
      kind: "next_payment",
      amount: 2400,
      credit_balance: 1200,
      balance_owing: 0,
      method: { type: "stripe_card", last_four: "4242" },
      rates,
      gym: {},
      due_on: "2026-12-08",
    }),
    due_on: "2026-12-08",
    method: "from your card ending 4242",
    why: "changed",
    last_total: 2490,
    replaces: 2490,
  }),
  "card expiry notice": cardExpiryEmail({
    ...member,
    user_id: "01USER",
    brand,
    due_on: "2027-01-04",
    card: "card ending 4242",
    expires: "December 2026",
  }),
};

describe("the email formats", () => {
  it("shows dates en-NZ, civil dates as they are and instants as their Auckland date", () => {
    expect(emailDate("2026-12-01")).toBe("Tuesday, 1 December 2026");
    // 11:00 UTC on the 15th is past midnight on the 16th in Auckland (NZDT, +13).
    expect(emailDate("2026-12-15T11:00:00.000Z")).toBe("Wednesday, 16 December 2026");
  });
  it("title-cases names", () => {
    expect(firstName("mary-jane o'neil")).toBe("Mary-Jane");
  });
  it("names a membership once: 'your Anytime Membership', never 'Anytime Membership membership'", () => {
    const email = priceChangeEmail({
      member_name: member.name,
      member_email: member.to,
      gym_name: brand.name,
      offering_name: "Anytime Membership",
      to_offering_name: "Anytime Membership",
      billing_frequency: "weekly",
      from_amount: 2000,
      to_amount: 2400,
      effective: "2027-01-04",
      reply_to: null,
    });
    expect(email.text).toContain("your Anytime Membership at Harbour Fitness Ponsonby will be $24.00");
    expect(`${email.subject}\n${email.text}`).not.toMatch(/membership membership/i);
    expect(fixtures["price change"].text).toContain("your Unlimited membership at");
  });
  it("a price change onto another offering does not say only the amount changes (hand tour: Anytime to Off-Peak)", () => {
    const email = priceChangeEmail({
      member_name: member.name,
      member_email: member.to,
      gym_name: brand.name,
      offering_name: "Anytime Membership",
      to_offering_name: "Off-Peak",
      billing_frequency: "weekly",
      from_amount: 2400,
      to_amount: 1500,
      from_label: "$24.00 Weekly",
      to_label: "$15.00 Weekly",
      term: null,
      effective: "2026-12-05",
      reply_to: null,
    });
    expect(email.text).toContain("moves from Anytime Membership to Off-Peak");
    expect(email.text).not.toContain("Only the amount changes");
    expect(email.text).toContain(
      "The amount and the membership change: what Off-Peak includes may differ from Anytime Membership; it stays without a term, so there is no fixed period and no break fee.",
    );
  });
});

describe("every email, rendered for a fixture member", { timeout: 30_000 }, () => {
  for (const [name, email] of Object.entries(fixtures)) {
    it(`${name}: subject and text part`, () => {
      // The unsubscribe token is signed with the environment's secret: shown as <token>.
      const text = email.text.replace(/unsubscribe\?token=[^\s>]+/g, "unsubscribe?token=<token>");
      expect(`Subject: ${email.subject}\n\n${text}`).toMatchSnapshot();
    });
    it(`${name}: the HTML part is the one layout with the same words`, async () => {
      const rendered = await renderEmail(email);
      const html = rendered.html ?? "";
      expect(html).toMatch(/^<!DOCTYPE html/);
      expect(html).toContain(email.content?.brand.name ?? "");
      expect(rendered).not.toHaveProperty("content");
      // The text part's opening paragraphs are the HTML's words.
      const words = html
        .replace(/<[^>]+>/g, "")
        .replace(/&#x27;/g, "'")
        .replace(/&amp;/g, "&");
      for (const paragraph of email.text.split("\n\n").slice(0, 3))
        for (const line of paragraph.split("\n")) expect(words).toContain(line.split(": ")[0].slice(0, 40));
    });
  }

  it("optional emails carry the one-click unsubscribe (RFC 8058); required ones do not", () => {
    for (const name of ["payment reminder", "card expiry notice"]) {
      expect(fixtures[name].kind).toBe("optional");
      expect(fixtures[name].headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
      expect(fixtures[name].headers?.["List-Unsubscribe"]).toMatch(/^<http.*\/api\/unsubscribe\?token=.+>$/);
    }
    for (const name of [
      "payment reminder, amount changed",
      "receipt",
      "failed payment",
      "sign-in code",
      "trial ending",
    ]) {
      expect(fixtures[name].kind).toBe("required");
      expect(fixtures[name].headers).toBeUndefined();
    }
  });

  it("a trial's welcome names the trial, never a $0.00 payment; its ending says the amount, the date and how to stop", () => {
    const welcome = fixtures["welcome, with a free trial"].text;
    expect(welcome).toContain("Your trial runs until Monday, 7 December 2026, free.");
    expect(welcome).not.toContain("$0.00");
    const ending = fixtures["trial ending"];
    expect(ending.subject).toBe("Your Harbour Fitness Ponsonby trial ends on Monday, 7 December 2026");
    expect(ending.text).toContain(
      "$24.90 will be taken from your card ending 4242 on Tuesday, 8 December 2026",
    );
    expect(ending.text).toMatch(/Stop my trial: http.*\/membership/);
  });

  it("has the gym's logo and reply-to in the layout when known", async () => {
    const rendered = await renderEmail(fixtures.welcome);
    expect(rendered.html).toContain(`src="${brand.logo_url}"`);
    expect(rendered.html).toContain("mailto:hello@harbour.example.com");
    expect(rendered.reply_to).toBe("hello@harbour.example.com");
  });

  it("renders fast once loaded (a few milliseconds an email)", async () => {
    await renderEmail(fixtures.welcome);
    const start = performance.now();
    for (let i = 0; i < 20; i++) await renderEmail(fixtures["failed payment"]);
    const each = (performance.now() - start) / 20;
    expect(each).toBeLessThan(50);
  });
});
