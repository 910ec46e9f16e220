/**
 * Issue 34, "figures that disagree with what is charged", from outside: the quote of the next
 * money event (`next_charge`, payment/quote.ts) is the figure the member's page, the staff card,
 * the dialogs and the emails show, and it is what the billing run then takes (docs/billing.md
 * "The quote of the next money event"). Staff and members act over HTTP; the business clock, the
 * jobs and the simulated providers are driven in-process.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { addCard, type MoneyWorld, moneyWorld } from "../../../../../tests/support/money";
import {
  addPrice as addWorldPrice,
  adminOf,
  at,
  charges as chargesOf,
  core,
  type Joined,
  join as joinAs,
  memberOf,
  runJob,
} from "../../../../../tests/support/money-api";

const api = useTestApi();
let world: MoneyWorld;
let admin: HttpClient;

const run = (job: "billing-run" | "payment-retries" | "member-notices") => runJob(job);
const weekly = (amount: number, term?: { term_amount: number; term_unit: "months" }) =>
  addWorldPrice(world, { amount, billing_frequency: "weekly", ...term });
const cardMember = (card = "4242424242424242") =>
  memberOf(world, api.url, { prefix: "figures", name: (n) => `Figures Member ${n}`, card });
const join = (member: { client: HttpClient }, priceId: string) => joinAs(world, member.client, priceId);
const tried = async (subscriptionId: string) => (await chargesOf(subscriptionId)).tried;

async function mailTo(email: string) {
  const mail = await admin.get("/api/dev/mail");
  return (mail.body.data as { to: string; subject: string; text: string }[]).filter((m) => m.to === email);
}

const mine = async (member: { client: HttpClient }) =>
  (await member.client.get("/api/me/active-subscription")).body.data;

beforeAll(async () => {
  world = await moneyWorld({ name: "Figures Gyms" });
  admin = await adminOf(world, api.url, "figures-admin@example.nz");
  await admin.put(`/api/organisations/${world.organisation_id}/communications`, {
    legal_name: "",
    gst_number: "",
    payment_reminder_days: 3,
  });
});

beforeEach(async () => {
  (await core()).resetSimulatedProviders();
});

describe("the owed amount is one figure: the email, the member's page and the retry (item 10)", () => {
  it("a failed $24.00 card payment: the email, next_charge and the retry all say $24.90", async () => {
    await at("2027-02-01");
    const priceId = await weekly(2400);
    const member = await cardMember("4000000000009995"); // soft decline: insufficient funds
    const sub = await join(member, priceId);
    await run("billing-run");

    const failed = (await mailTo(member.email)).find((m) => /didn't go through/.test(m.subject));
    expect(failed?.subject).toContain("$24.90");
    const page = await mine(member);
    expect(page.balance_owing).toBe(2400);
    expect(page.next_charge).toMatchObject({
      kind: "balance_owing",
      amount: 2400,
      surcharge: 90,
      total: 2490,
      formatted_total: "$24.90",
    });
    // Staff read the same quote.
    const staff = await admin.get(`/api/subscriptions/${sub.id}`);
    expect(staff.body.data.next_charge.formatted_total).toBe("$24.90");

    // The retry takes exactly the figure quoted.
    await at(page.next_charge.due_on);
    await run("payment-retries");
    expect((await tried(sub.id)).at(-1)).toBe(page.next_charge.total);
  });
});

describe("credit is shown and applied to the next charge as quoted (item 11)", () => {
  it("$30.00 recorded against $24.00 owing: $6.00 credit, next payment $18.75, and $18.75 is charged", async () => {
    await at("2027-03-01");
    const priceId = await weekly(2400);
    const member = await cardMember("4000000000009995");
    const sub = await join(member, priceId);
    await run("billing-run"); // fails: $24.00 owing
    const manual = await admin.post(`/api/subscriptions/${sub.id}/manual-payment`, {
      amount: 3000,
      payment_method: "cash",
    });
    expect(manual.status, JSON.stringify(manual.body)).toBe(200);

    const page = await mine(member);
    expect(page).toMatchObject({ balance_owing: 0, credit_balance: 600 });
    // $24.00 less $6.00 credit = $18.00; 2.5 % + 30¢ of $18.00 = 75¢.
    expect(page.next_charge).toMatchObject({
      kind: "next_payment",
      due_on: "2027-03-08",
      amount: 2400,
      credit_applied: 600,
      surcharge: 75,
      total: 1875,
      credit_after: 0,
    });
    expect(page.next_charge.summary).toContain("$6.00 paid from your credit");
    // The desk payment's receipt splits the $30.00 into the debt it cleared and the credit (tour item 6).
    const desk = (page.payments as { id: string; meta: { kind?: string } | null }[]).find(
      (p) => p.meta?.kind === "manual",
    );
    const receipt = (await member.client.get(`/api/me/payments/${desk?.id}/receipt`)).body.data;
    expect(receipt.total).toBe(3000);
    expect(receipt.lines.map((l: { label: string; amount: number }) => [l.label, l.amount])).toEqual([
      ["Overdue balance cleared", 2400],
      ["Credit towards your next payments", 600],
    ]);

    await at("2027-03-08");
    (await core()).resetSimulatedProviders();
    await addCard(world, member.user, "4242424242424242"); // a working card, now the default
    const card = (await mine(member)).next_charge;
    expect(card.total).toBe(1875);
    await run("billing-run");
    expect(await tried(sub.id)).toEqual([card.total]);
  });
});

describe("the staff payments list shows the upcoming payment as quoted (tour: one figure everywhere)", () => {
  it("$6.00 credit ahead: the list's upcoming row reads $18.75 (credit $6.00, surcharge 75c), as the member's page", async () => {
    await at("2027-03-15");
    const priceId = await weekly(2400);
    const member = await cardMember("4000000000009995");
    const sub = await join(member, priceId);
    await run("billing-run"); // fails: $24.00 owing
    await admin.post(`/api/subscriptions/${sub.id}/manual-payment`, { amount: 3000, payment_method: "cash" });
    const quote = (await mine(member)).next_charge;
    expect(quote).toMatchObject({ kind: "next_payment", total: 1875, credit_applied: 600 });

    const list = await admin.get("/api/payments?status=upcoming&per_page=100");
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const row = (list.body.data as { subscription: string | null; due_on: string }[]).find(
      (p) => p.subscription === sub.id,
    );
    expect(row).toMatchObject({
      due_on: quote.due_on,
      amount: 2400,
      credit_used: 600,
      surcharge: 75,
      total: 1875,
      formatted_total: "$18.75",
    });
  });

  it("credit covering the whole payment: the list's upcoming row reads $0.00, as the member's page", async () => {
    await at("2027-03-22");
    const priceId = await weekly(1500);
    const member = await cardMember("4000000000009995");
    const sub = await join(member, priceId);
    await run("billing-run"); // fails: $15.00 owing
    await admin.post(`/api/subscriptions/${sub.id}/manual-payment`, { amount: 4500, payment_method: "cash" });
    const quote = (await mine(member)).next_charge;
    expect(quote).toMatchObject({ kind: "next_payment", total: 0, credit_applied: 1500 });

    const list = await admin.get("/api/payments?status=upcoming&per_page=100");
    const row = (list.body.data as { subscription: string | null }[]).find((p) => p.subscription === sub.id);
    expect(row).toMatchObject({ credit_used: 1500, surcharge: 0, total: 0, formatted_total: "$0.00" });
  });
});

describe("the current period is the schedule's, not a stored copy (item 12)", () => {
  it("a long-standing member whose stored period is a year old is shown the period today falls in", async () => {
    await at("2027-04-05"); // a Monday
    const priceId = await weekly(2000);
    const member = await cardMember();
    const sub = await join(member, priceId);
    await run("billing-run");
    // As the record of a member billed before the claim kept the period: a year old.
    const { db } = await core();
    await db()
      .entities.subscription.patch({ organisation_id: world.organisation_id, subscription_id: sub.id })
      .set({
        current_period_start: "2026-04-05T12:00:00.000Z",
        current_period_end: "2026-04-12T12:00:00.000Z",
      })
      .go();
    await at("2027-04-21"); // Wednesday of the third week
    const read = await admin.get(`/api/subscriptions/${sub.id}`);
    // 19 Apr – 26 Apr 2027 (NZST from 4 April: midnight is 12:00Z the day before).
    expect(read.body.data).toMatchObject({
      current_period_start: "2027-04-18T12:00:00.000Z",
      current_period_end: "2027-04-25T12:00:00.000Z",
    });
  });
});

describe("the reminder names the card that will be charged (item 8)", () => {
  it("after the member replaces their card, the reminder and the page name the new one", async () => {
    await at("2027-05-03");
    const priceId = await weekly(2400);
    const member = await cardMember("4242424242424242"); // first card: •••• 4242
    const sub = await join(member, priceId);
    await run("billing-run");
    // The member adds a new card (•••• 4444) and makes it their default.
    const replaced = await addCard(world, member.user, "5555555555554444");
    const switched = await member.client.post(`/api/me/payment-types/${replaced.payment_type_id}/switch`);
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);

    const page = await mine(member);
    expect(page.next_charge.payment_method.label).toMatch(/4444$/);

    await at("2027-05-07"); // three days before 10 May
    await run("member-notices");
    const reminder = (await mailTo(member.email)).find((m) => /payment of/.test(m.subject));
    expect(reminder?.text).toContain(page.next_charge.payment_method.label);
    expect(reminder?.text).not.toContain("4242");
    expect(reminder?.subject).toContain(page.next_charge.formatted_total);

    await at("2027-05-10");
    await run("billing-run");
    expect((await tried(sub.id)).at(-1)).toBe(page.next_charge.total);
  });
});

describe("the break fee is quoted as charged, surcharge included (item 5)", () => {
  it("a break fee by card: staff and the member are told the fee plus its surcharge, and that total is charged", async () => {
    await at("2027-06-01");
    // $25.00 a month over a 12-month term; the break fee is the gym's 25 % of what is left.
    const priceId = await addWorldPrice(world, {
      amount: 2500,
      billing_frequency: "monthly",
      term_amount: 12,
      term_unit: "months",
    });
    const member = await cardMember();
    const sub = await join(member, priceId);
    await run("billing-run");
    await at("2027-06-10"); // after cooling-off
    const staff = (await admin.get(`/api/subscriptions/${sub.id}/cancellation-preview`)).body.data;
    const own = (await member.client.get(`/api/me/subscriptions/${sub.id}/cancellation-preview`)).body.data;
    expect(staff.break_fee).toBeGreaterThan(0);
    const fee = staff.break_fee as number;
    // 2.5 % + 30¢ of the fee, rounded half up once.
    const surcharge = Math.floor((fee * 250 + 3000 * 100 + 5000) / 10000);
    expect(staff.break_fee_charge).toMatchObject({
      kind: "break_fee",
      amount: fee,
      surcharge,
      total: fee + surcharge,
    });
    expect(own.break_fee_charge).toEqual(staff.break_fee_charge);

    const cancelled = await admin.post(`/api/subscriptions/${sub.id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    // The email states the all-in total, and splits it as the staff page does.
    const told = (await mailTo(member.email)).find((m) => /membership is cancelled/.test(m.subject));
    const charge = staff.break_fee_charge;
    expect(told?.text).toContain(`A break fee of ${charge.formatted_total} is due today`);
    expect(told?.text).toContain(
      `${staff.formatted_break_fee} plus a ${charge.formatted_surcharge} card surcharge`,
    );
    expect(told?.text).toContain(charge.payment_method.label);
    // The member's page quotes the same fee before it is taken.
    expect((await mine(member)).next_charge).toMatchObject({ kind: "break_fee", total: fee + surcharge });
    await run("billing-run");
    expect((await tried(sub.id)).at(-1)).toBe(staff.break_fee_charge.total);
  });
});

describe("a pay-in-full bank transfer not yet received is awaited, not declined (item 6)", () => {
  it("the member is not told it failed; staff and member read 'awaiting bank transfer' of $299.00", async () => {
    await at("2027-07-01");
    const pif = await addWorldPrice(world, {
      amount: 29900,
      billing_frequency: "one_off",
      term_amount: 3,
      term_unit: "months",
    });
    const member = await memberOf(world, api.url, { prefix: "figures-pif", name: () => "pat o'brien-smith" });
    const added = await admin.post(`/api/members/${member.user.user_id}/pif`, {
      price_id: pif,
      gym_id: world.gym_id,
      payment_method: "bank_transfer",
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.data.balance_owing).toBe(29900);
    const awaiting = {
      kind: "awaiting_transfer",
      title: "Awaiting bank transfer",
      amount: 29900,
      surcharge: 0,
      total: 29900,
      payment_method: { type: "bank_transfer", label: "Bank transfer" },
    };
    expect(added.body.data.next_charge).toMatchObject(awaiting);

    const state = (await member.client.get("/api/me/registration")).body.data;
    expect(state.payment_failed).toBe(false);
    expect(state.subscription.next_charge).toMatchObject(awaiting);
    // Where to pay it and with which reference, as the email says (issue 35's leftover: the welcome
    // page had only the amount). The reference is the member's name as a bank reference takes it.
    expect(state.bank_transfer).toEqual({
      account_name: "Figures Gyms Ponsonby Ltd",
      account_number: "12-3140-0171323-50",
      reference: "Pat OBrien-S",
    });

    const received = await admin.post(`/api/payments/${added.body.data.first_payment.id}/received`);
    expect(received.status).toBe(200);
    const after = (await admin.get(`/api/subscriptions/${added.body.data.id}`)).body.data;
    expect(after).toMatchObject({ balance_owing: 0, next_charge: null });
  });
});

describe("a bulk price change cannot put members on a term (item 7)", () => {
  it("Flexi members moved to a 12M Term price are refused, naming each; a plain price's email and preview say only the amount changes", async () => {
    await at("2027-08-02");
    const flexi = await weekly(2400);
    const term = await weekly(2000, { term_amount: 12, term_unit: "months" });
    const plain = await weekly(2000);
    const subs: Joined[] = [];
    for (let i = 0; i < 2; i++) subs.push(await join(await cardMember(), flexi));
    const body = (priceId: string) => ({ subscription_ids: subs.map((s) => s.id), price_id: priceId });

    for (const path of ["change-price-email-preview", "schedule-price-change"]) {
      const refused = await admin.post(`/api/subscriptions/${path}`, body(term));
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      const message = refused.body.errors.subscription_ids[0] as string;
      expect(message).toMatch(/Figures Member \d+: \$20\.00 Weekly.*12M Term with a break fee/);
      expect(message).toContain("a term needs the member's agreement");
      expect(message.match(/Figures Member/g)).toHaveLength(2);
    }
    // Nothing was scheduled or emailed.
    const { findSubscription } = await core();
    for (const s of subs)
      expect((await findSubscription(world.organisation_id, s.id))?.transition_to_price_id).toBeUndefined();

    const preview = await admin.post("/api/subscriptions/change-price-email-preview", body(plain));
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    for (const email of preview.body.data) {
      expect(email.subject).toContain("going down");
      expect(email.text).toContain("Only the amount changes: your membership stays without a term");
      expect(email.text).toContain("no break fee");
    }
  });
});

describe("receipts say what was paid, at the price it was charged at (item 9)", () => {
  it("the receipt of a cleared debt says it is paid, and its lines add up to the total the page quoted", async () => {
    await at("2027-09-06");
    const priceId = await weekly(2400);
    const member = await cardMember("4000000000009995");
    await join(member, priceId);
    await run("billing-run"); // fails: $24.00 owing
    const owed = (await mine(member)).next_charge;
    expect(owed.total).toBe(2490);
    // A working card, made the default: the balance is retried with it at once.
    (await core()).resetSimulatedProviders();
    const card = await addCard(world, member.user, "5555555555554444");
    await member.client.post(`/api/me/payment-types/${card.payment_type_id}/switch`);
    await run("payment-retries");
    const page = await mine(member);
    expect(page.balance_owing).toBe(0);
    // The failed charge the retry cleared reads as cleared, on the member's page and the staff page (tour item 8).
    const failed = (page.payments as { id: string; status: string; cleared_after_failure: boolean }[]).find(
      (p) => p.status === "failed",
    );
    expect(failed?.cleared_after_failure).toBe(true);
    const staffRows = (await admin.get(`/api/members/${member.user.user_id}`)).body.data.recent_payments as {
      id: string;
      cleared_after_failure: boolean;
    }[];
    expect(staffRows.find((p) => p.id === failed?.id)?.cleared_after_failure).toBe(true);
    const retry = (page.payments as { id: string; is_retry: boolean; status: string }[]).find(
      (p) => p.is_retry && p.status === "sent",
    );
    expect(retry).toBeDefined();
    const receipt = (await member.client.get(`/api/me/payments/${retry?.id}/receipt`)).body.data;
    expect(receipt.total).toBe(owed.total);
    expect(receipt.lines.reduce((sum: number, l: { amount: number }) => sum + l.amount, 0)).toBe(
      receipt.total,
    );
    expect(receipt.lines[0].label).not.toMatch(/^Balance owing/);
    expect(receipt.lines[0].label).toContain("now paid");
    const email = (await mailTo(member.email)).find((m) => m.subject.includes(receipt.number));
    expect(email?.subject).toContain(owed.formatted_total);
  });

  it("after a price change to $20.00 Weekly, the invoice of a period at the new price names it", async () => {
    await at("2027-10-04");
    const from = await weekly(2400);
    const to = await weekly(2000);
    const member = await cardMember();
    const sub = await join(member, from);
    await run("billing-run"); // 4 Oct paid; 11 Oct planned with the label of $24.00
    const scheduled = await admin.post("/api/subscriptions/schedule-price-change", {
      subscription_ids: [sub.id],
      price_id: to,
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    const next = (await mine(member)).next_charge;
    expect(next).toMatchObject({ due_on: "2027-10-11", amount: 2000 });
    expect(next.label).toMatch(/^\$20\.00 Weekly/);
    await at("2027-10-11");
    await run("billing-run");
    const paid = ((await mine(member)).payments as { id: string; due_on: string; status: string }[]).find(
      (p) => p.due_on === "2027-10-11" && p.status === "sent",
    );
    // The row of the charge names the price in force for its period (tour item 4).
    expect(paid).toMatchObject({ amount: 2000 });
    expect((paid as unknown as { price_label: string }).price_label).toBe(next.label);
    const receipt = (await member.client.get(`/api/me/payments/${paid?.id}/receipt`)).body.data;
    expect(receipt.lines[0]).toMatchObject({ amount: 2000 });
    expect(receipt.lines[0].label).toContain(next.label);
    expect(receipt.lines[0].label).not.toContain("$24.00");
  });

  it("a charge partly paid from credit: the receipt lists the price, the credit taken off and the surcharge, as the reminder did (hand tour)", async () => {
    await at("2027-11-01");
    const priceId = await weekly(2400);
    const member = await cardMember();
    const sub = await join(member, priceId);
    await run("billing-run"); // 1 Nov paid; 8 Nov planned
    const credit = await admin.post(`/api/subscriptions/${sub.id}/manual-payment`, {
      amount: 600,
      payment_method: "cash",
    });
    expect(credit.status, JSON.stringify(credit.body)).toBe(200);
    await at("2027-11-08");
    await run("billing-run");
    const paid = ((await mine(member)).payments as { id: string; due_on: string; status: string }[]).find(
      (p) => p.due_on === "2027-11-08" && p.status === "sent",
    );
    const receipt = (await member.client.get(`/api/me/payments/${paid?.id}/receipt`)).body.data;
    // $24.00 less $6.00 credit = $18.00; 2.5 % + 30¢ of $18.00 = 75¢. It read "$24.00 Weekly: $18.00".
    expect(receipt.total).toBe(1875);
    expect(receipt.lines.map((l: { label: string; amount: number }) => [l.label, l.amount])).toEqual([
      [expect.stringContaining("Weekly"), 2400],
      ["Paid from your credit", -600],
      ["Card surcharge", 75],
    ]);
  });
});

describe("a reminder follows the quote: credit shown, and sent again when the amount changes (tour)", () => {
  it("reminded of $24.90, then $12.00 of credit: an updated reminder of $12.60 with the credit line, once, and $12.60 is charged", async () => {
    await at("2027-11-01"); // a Monday
    const priceId = await weekly(2400);
    const member = await cardMember();
    const sub = await join(member, priceId);
    await run("billing-run"); // 1 Nov paid; 8 Nov planned
    await at("2027-11-05"); // three days before 8 Nov
    await run("member-notices");
    const reminders = async () =>
      (await mailTo(member.email)).filter((m) =>
        /payment of .* is on Monday, 8 November 2027/.test(m.subject),
      );
    expect((await reminders()).map((m) => m.subject)).toEqual([expect.stringContaining("payment of $24.90")]);

    const credit = await admin.post(`/api/subscriptions/${sub.id}/manual-payment`, {
      amount: 1200,
      payment_method: "cash",
    });
    expect(credit.status, JSON.stringify(credit.body)).toBe(200);
    const page = await mine(member);
    const quote = page.next_charge;
    // $24.00 less $12.00 credit = $12.00; 2.5 % + 30¢ of it = 60¢.
    expect(quote).toMatchObject({ credit_applied: 1200, surcharge: 60, total: 1260 });
    // The upcoming row shows the quote's figures, not the surcharge it was planned with (tour item 4).
    const row = (page.payments as { status: string; due_on: string; total: number }[]).find(
      (p) => p.status === "upcoming" && p.due_on === "2027-11-08",
    );
    expect(row).toMatchObject({ amount: 2400, credit_used: 1200, surcharge: 60, total: 1260 });
    expect(page.upcoming_payment).toMatchObject({ total: 1260, formatted_total: "$12.60" });
    const staffRows = (await admin.get(`/api/members/${member.user.user_id}`)).body.data.recent_payments as {
      status: string;
      total: number;
    }[];
    expect(staffRows.find((p) => p.status === "upcoming")?.total).toBe(1260);

    await at("2027-11-06");
    await run("member-notices");
    await run("member-notices"); // idempotent: the change is told once
    const sent = await reminders();
    expect(sent).toHaveLength(2);
    const updated = sent.find((m) => m.subject.includes(quote.formatted_total));
    expect(updated?.text).toContain("Membership: $24.00");
    expect(updated?.text).toContain("Credit applied: -$12.00");
    expect(updated?.text).toContain("Card surcharge: $0.60");
    expect(updated?.text).toContain("Total: $12.60");
    expect(updated?.text).toContain("replaces our earlier reminder of $24.90");

    await at("2027-11-08");
    await run("billing-run");
    expect((await tried(sub.id)).at(-1)).toBe(quote.total);
  });
});

describe("a reminder compares with the last payment of the same kind (tour: a desk payment, a credit-paid week)", () => {
  it("after a $40.00 desk payment (debt and credit): the reminder does not call $40.00 the last payment", async () => {
    await at("2027-12-06");
    const priceId = await weekly(2400);
    const member = await cardMember("4000000000009995");
    const sub = await join(member, priceId);
    await run("billing-run"); // fails: $24.00 owing
    await admin.post(`/api/subscriptions/${sub.id}/manual-payment`, { amount: 4000, payment_method: "cash" });
    const quote = (await mine(member)).next_charge;
    expect(quote).toMatchObject({ due_on: "2027-12-13", total: 850 }); // $24.00 less $16.00 credit, + 50c

    await at("2027-12-10");
    await run("member-notices");
    const reminder = (await mailTo(member.email)).find((m) => m.subject.includes("payment of $8.50 is on"));
    expect(reminder, "the reminder is sent").toBeDefined();
    expect(reminder?.text).not.toContain("$40.00");
    expect(reminder?.text).not.toContain("different from your last payment");
  });

  it("after a week paid wholly by credit: no 'different from your last payment of $0.00'", async () => {
    await at("2027-12-20");
    const priceId = await weekly(1500);
    const member = await cardMember("4000000000009995");
    const sub = await join(member, priceId);
    await run("billing-run"); // fails: $15.00 owing
    await admin.post(`/api/subscriptions/${sub.id}/manual-payment`, { amount: 4000, payment_method: "cash" });
    await at("2027-12-27");
    await run("billing-run"); // $15.00 paid wholly from the $25.00 credit
    expect((await mine(member)).credit_balance).toBe(1000);

    await at("2027-12-31"); // three days before 3 January: $5.00 left after $10.00 credit, plus surcharge
    await run("member-notices");
    const reminder = (await mailTo(member.email)).find((m) => /payment of \$[\d.]+ is on/.test(m.subject));
    expect(reminder, "the reminder is sent").toBeDefined();
    expect(reminder?.text).not.toContain("$0.00");
    expect(reminder?.text).not.toContain("different from your last payment");
  });
});
