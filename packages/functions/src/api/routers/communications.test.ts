/**
 * Issue 26 from outside: receipts (NZ taxable supply information). Staff and members act over HTTP;
 * the business clock, the jobs and the simulated providers are driven in-process, as the
 * simulation does (docs/communications.md).
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signIn, useTestApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { type MoneyWorld, moneyWorld } from "../../../../../tests/support/money";
import {
  addPrice as addWorldPrice,
  adminOf,
  at,
  core,
  join as joinAs,
  memberOf,
  runJob,
} from "../../../../../tests/support/money-api";

const api = useTestApi();
let world: MoneyWorld;
let admin: HttpClient;

const run = (job: "billing-run" | "payment-retries" | "member-notices") => runJob(job);
/** A member with a saved card; the name typed in lower case (names are shown title-cased). */
const cardMember = (card = "4242424242424242") =>
  memberOf(world, api.url, { prefix: "comms", name: (n) => `mary comms${n}`, card });
const join = (member: { client: HttpClient }, priceId = world.price_id) =>
  joinAs(world, member.client, priceId);

async function mailTo(email: string) {
  const mail = await admin.get("/api/dev/mail");
  return (
    mail.body.data as {
      to: string;
      subject: string;
      text: string;
      html?: string;
      headers?: Record<string, string>;
    }[]
  ).filter((m) => m.to === email);
}

/** A personal trainer at the world's gym, signed in. */
async function trainerAt(world: MoneyWorld, email: string) {
  const { createUser } = await import("@gym/core/user/service");
  const { putRole } = await import("@gym/core/user/roles");
  const person = await createUser({
    email,
    name: "Tia Trainer",
    password: "demo-password",
    email_verified: true,
  });
  await putRole({
    organisation_id: world.organisation_id,
    user_id: person.user_id,
    gym_roles: [{ gym_id: world.gym_id, role: "personal_trainer" }],
  });
  return signIn(api.url, email);
}

const communications = (body: Record<string, unknown>) =>
  admin.put(`/api/organisations/${world.organisation_id}/communications`, body);

beforeAll(async () => {
  world = await moneyWorld({ name: "Receipt Gyms" });
  admin = await adminOf(world, api.url, "comms-admin@example.nz");
});

beforeEach(async () => {
  (await core()).resetSimulatedProviders();
});

describe("receipts", () => {
  it("a settled card payment gets one receipt, emailed once: GST 3/23 of the total, the surcharge its own line", async () => {
    expect(
      (
        await communications({
          legal_name: "Receipt Gyms Limited",
          gst_number: "49091850",
          payment_reminder_days: 0,
        })
      ).status,
    ).toBe(200);
    await at("2027-01-10");
    const member = await cardMember();
    const sub = await join(member);
    const paymentId = sub.first_payment.id;
    // Not paid yet: no receipt.
    expect((await member.client.get(`/api/me/payments/${paymentId}/receipt`)).status).toBe(404);

    await run("billing-run");
    const mine = await member.client.get(`/api/me/payments/${paymentId}/receipt`);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    const receipt = mine.body.data;
    // $60.00 + 2.5 % + 30¢ = $61.80; GST = round(6180 × 3 / 23) = round(806.09) = 806.
    expect(receipt).toMatchObject({
      title: "Tax invoice",
      date: "2027-01-10",
      supplier: {
        legal_name: "Receipt Gyms Limited",
        trading_name: world.gym_name,
        gst_number: "49-091-850",
      },
      customer: { name: expect.stringMatching(/^Mary Comms\d+$/), email: member.email },
      period: { start: "2027-01-10", end: "2027-02-09" },
      lines: [
        { label: expect.stringContaining("24/7 Membership"), amount: 6000, formatted_amount: "$60.00" },
        { label: "Card surcharge", amount: 180, formatted_amount: "$1.80" },
      ],
      total: 6180,
      formatted_total: "$61.80",
      gst_included: 806,
      formatted_gst_included: "$8.06",
      // The card the payment was charged to, as the member knows it.
      payment_method: "Visa •••• 4242",
    });
    expect(receipt.number).toMatch(/^\d{6}$/);
    // The offering is named once: "24/7 Membership (…)", not "24/7 Membership membership".
    expect(receipt.lines[0].label).toMatch(/^24\/7 Membership \(/);

    // Staff who see the payment read the same receipt.
    const staff = await admin.get(`/api/payments/${paymentId}/receipt`);
    expect(staff.body.data).toEqual(receipt);

    // Another member: 404, like an id that does not exist.
    const other = await cardMember();
    expect((await other.client.get(`/api/me/payments/${paymentId}/receipt`)).status).toBe(404);
    expect((await other.client.get(`/api/payments/${paymentId}/receipt`)).status).toBe(403);
    // A personal trainer at the gym: a receipt is a money document (policy.seeMoney), 403.
    const trainer = await trainerAt(world, "comms-trainer@example.nz");
    expect((await trainer.get(`/api/payments/${paymentId}/receipt`)).status).toBe(403);

    // Emailed once, with the same figures, whatever runs again.
    await run("billing-run");
    await admin.get(`/api/payments/${paymentId}/receipt`);
    const receipts = (await mailTo(member.email)).filter((m) => m.subject.startsWith("Tax invoice"));
    expect(receipts).toHaveLength(1);
    expect(receipts[0].subject).toBe(`Tax invoice ${receipt.number}: $61.80 paid to ${world.gym_name}`);
    expect(receipts[0].text).toContain("GST included (15%): $8.06");
    expect(receipts[0].text).toContain("Card surcharge: $1.80");
    expect(receipts[0].text).toContain("GST number 49-091-850");
    expect(receipts[0].text).toContain("Visa •••• 4242");
    expect(receipts[0].html).toContain("$8.06");
  });

  it("an organisation not registered for GST: a receipt without the GST line; a manual payment at the desk gets one too", async () => {
    await communications({ legal_name: "", gst_number: "", payment_reminder_days: 0 });
    await at("2027-02-10");
    const member = await cardMember();
    const sub = await join(member);
    const manual = await admin.post(`/api/subscriptions/${sub.id}/manual-payment`, {
      amount: 2500,
      payment_method: "eftpos",
    });
    expect(manual.status).toBe(200);
    const payments = await admin.get(`/api/users/${member.user.user_id}/payments`);
    const desk = (payments.body.data as { id: string; status: string; amount: number }[]).find(
      (p) => p.status === "sent" && p.amount === 2500,
    );
    expect(desk).toBeDefined();
    const read = await member.client.get(`/api/me/payments/${desk?.id}/receipt`);
    expect(read.body.data).toMatchObject({
      title: "Receipt",
      supplier: { legal_name: "Receipt Gyms", gst_number: null },
      total: 2500,
      gst_included: null,
      formatted_gst_included: null,
      payment_method: "EFTPOS",
      period: null,
      lines: [{ amount: 2500 }],
    });
    const mail = (await mailTo(member.email)).filter((m) => m.subject.startsWith("Receipt "));
    expect(mail).toHaveLength(1);
    expect(mail[0].text).not.toContain("GST");
  });

  it("numbers are unique within the organisation when a billing run settles hundreds at once", async () => {
    const { db } = await import("@gym/core/db/service");
    const { newId } = await import("@gym/core/ids");
    const { issueReceipt } = await import("@gym/core/receipt/service");
    const member = await cardMember();
    const ids: string[] = [];
    for (let i = 0; i < 150; i++) {
      const payment_id = newId();
      ids.push(payment_id);
      await db()
        .entities.payment.create({
          organisation_id: world.organisation_id,
          payment_id,
          user_id: member.user.user_id,
          gym_id: world.gym_id,
          status: "sent",
          type: "pif",
          amount: 1000 + i,
          due_on: "2027-02-10",
          settled_at: new Date().toISOString(),
          pif_payment: { id: newId(), payment_method: "cash" },
          member_name: "mary",
          member_email: member.email,
          gym_name: world.gym_name,
        })
        .go();
    }
    // Each payment's receipt asked for twice at once (a webhook and the polling job, say).
    const issued = await Promise.all([...ids, ...ids].map((id) => issueReceipt(world.organisation_id, id)));
    const numbers = new Map(issued.map((r) => [r?.receipt.payment_id, r?.receipt.number]));
    expect(numbers.size).toBe(150);
    expect(new Set(numbers.values()).size).toBe(150);
    expect(issued.filter((r) => r?.issued)).toHaveLength(150);
    // Read again, each payment keeps its one number.
    for (const id of ids.slice(0, 5))
      expect((await issueReceipt(world.organisation_id, id))?.receipt.number).toBe(numbers.get(id));
  });
});

const addPrice = (input: { amount: number; joining_fee?: number }) =>
  addWorldPrice(world, { billing_frequency: "monthly", ...input });

async function setFlags(
  userId: string,
  flags: { payment_reminders?: boolean; email_notifications_enabled?: boolean },
) {
  // The member's switches for this organisation (docs/data-model.md "Personal details").
  const { saveProfile } = await import("@gym/core/user/profile");
  await saveProfile(world.organisation_id, userId, flags);
}

async function cardExpires(userId: string, month: number, year: number) {
  const { db } = await import("@gym/core/db/service");
  const { listPaymentTypeRecords } = await import("@gym/core/payment-type/service");
  for (const card of await listPaymentTypeRecords(world.organisation_id, userId))
    await db()
      .entities.paymentType.patch({
        organisation_id: world.organisation_id,
        user_id: userId,
        payment_type_id: card.payment_type_id,
      })
      .set({ exp_month: month, exp_year: year })
      .go();
}

const subjects = async (email: string, pattern: RegExp) =>
  (await mailTo(email)).filter((m) => pattern.test(m.subject));

describe("payment reminders and card-expiry notices (the member-notices job)", () => {
  it("reminds N days before a charge, once however often the job runs; the amount includes the surcharge", async () => {
    await communications({ legal_name: "", gst_number: "", payment_reminder_days: 3 });
    await at("2027-03-01");
    const member = await cardMember();
    await join(member);
    await run("billing-run"); // the first payment; the next one is due on 1 April

    await at("2027-03-28"); // four days before: not yet
    await run("member-notices");
    expect(await subjects(member.email, /payment of/)).toHaveLength(0);

    await at("2027-03-29");
    await run("member-notices");
    await run("member-notices");
    const [second] = await Promise.all([run("member-notices"), run("member-notices")]);
    expect(second.reminders).toBe(0);
    const reminders = await subjects(member.email, /payment of/);
    expect(reminders.map((m) => m.subject)).toEqual([
      `Your ${world.gym_name} payment of $61.80 is on Thursday, 1 April 2027`,
    ]);
    // Optional: the one-click unsubscribe headers (RFC 8058) and the footer link.
    expect(reminders[0].headers).toMatchObject({
      "List-Unsubscribe": expect.stringMatching(/^<http.*\/api\/unsubscribe\?token=.+>$/),
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(reminders[0].text).toContain("Card surcharge: $1.80");
    expect(reminders[0].text).toMatch(/Stop these emails: http.*\/unsubscribe\?token=/);
  });

  it("honours payment_reminders and email_notifications_enabled, but always tells a member whose amount changes", async () => {
    await communications({ legal_name: "", gst_number: "", payment_reminder_days: 3 });
    await at("2027-05-01");
    const priceWithFee = await addPrice({ amount: 6000, joining_fee: 2500 });
    const quiet = await cardMember();
    const noEmails = await cardMember();
    const feeNoReminders = await cardMember();
    await join(quiet);
    await join(noEmails);
    await join(feeNoReminders, priceWithFee); // first payment $85.00 + surcharge, then $60.00 + surcharge
    await setFlags(quiet.user.user_id, { payment_reminders: false });
    await setFlags(noEmails.user.user_id, { email_notifications_enabled: false });
    await setFlags(feeNoReminders.user.user_id, {
      payment_reminders: false,
      email_notifications_enabled: false,
    });
    await run("billing-run");

    await at("2027-05-30");
    await run("member-notices");
    await run("member-notices");
    expect(await subjects(quiet.email, /payment of/)).toHaveLength(0);
    expect(await subjects(noEmails.email, /payment of/)).toHaveLength(0);
    const changed = await subjects(feeNoReminders.email, /payment of/);
    expect(changed).toHaveLength(1);
    expect(changed[0].subject).toBe(`Your ${world.gym_name} payment of $61.80 is on Tuesday, 1 June 2027`);
    expect(changed[0].text).toContain("This is different from your last payment of $87.43.");
    // Required: no unsubscribe.
    expect(changed[0].headers).toBeUndefined();
  });

  it("card-expiry notices 14 and 3 days before a charge the card expires before, once each, not when emails are off", async () => {
    await communications({ legal_name: "", gst_number: "", payment_reminder_days: 0 });
    await at("2027-07-01");
    const expiring = await cardMember();
    const off = await cardMember();
    const fine = await cardMember();
    for (const m of [expiring, off, fine]) await join(m);
    await run("billing-run"); // next charges on 1 August
    await cardExpires(expiring.user.user_id, 7, 2027);
    await cardExpires(off.user.user_id, 7, 2027);
    await cardExpires(fine.user.user_id, 8, 2027);
    await setFlags(off.user.user_id, { email_notifications_enabled: false });

    await at("2027-07-17"); // 15 days before
    await run("member-notices");
    expect(await subjects(expiring.email, /card expires/)).toHaveLength(0);
    await at("2027-07-18"); // 14 days before
    await run("member-notices");
    await run("member-notices");
    await at("2027-07-25");
    await run("member-notices");
    expect(await subjects(expiring.email, /card expires/)).toHaveLength(1);
    await at("2027-07-29"); // 3 days before
    await run("member-notices");
    await run("member-notices");
    const notices = await subjects(expiring.email, /card expires/);
    expect(notices).toHaveLength(2);
    expect(notices[0].subject).toBe(`Your card expires before your next ${world.gym_name} payment`);
    expect(notices[0].text).toContain(
      "expires at the end of July 2027, before your next payment on Sunday, 1 August 2027",
    );
    expect(notices[0].text).toMatch(/Update your payment method: http:\/\/[^/]+\/payment-method/);
    expect(notices[0].headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(await subjects(off.email, /card expires/)).toHaveLength(0);
    expect(await subjects(fine.email, /card expires/)).toHaveLength(0);
    // Reminders are off for the organisation (0): none sent.
    expect(await subjects(expiring.email, /payment of/)).toHaveLength(0);
  });
});

describe("preferences: the one-click unsubscribe and the member's own switches", () => {
  it("a mail client's one-click POST turns optional emails off without signing in; receipts still come", async () => {
    await communications({ legal_name: "", gst_number: "", payment_reminder_days: 3 });
    await at("2027-09-01");
    const member = await cardMember();
    await join(member);
    await run("billing-run"); // next charges on 1 October and 1 November
    await at("2027-09-28");
    await run("member-notices");
    const [reminder] = await subjects(member.email, /payment of/);
    const header = reminder.headers?.["List-Unsubscribe"] ?? "";
    const address = new URL(header.slice(1, -1));

    // As a mail client sends it (RFC 8058): a form POST, no cookie, no X-Requested-With.
    const post = (path: string) =>
      fetch(`${api.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
    expect((await post("/api/unsubscribe?token=forged.token")).status).toBe(404);
    expect((await post(`/api/unsubscribe?token=${member.user.user_id}.AAAA`)).status).toBe(404);
    expect((await post("/api/unsubscribe")).status).toBe(404);
    const done = await post(`${address.pathname}${address.search}`);
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ data: { email_notifications_enabled: false } });
    expect((await post(`${address.pathname}${address.search}`)).status).toBe(200); // idempotent
    const state = await member.client.get("/api/me/registration");
    expect(state.body.data.register_fields.email_notifications_enabled).toBe(false);

    // The next month: no optional reminder (same amount), but the receipt of the charge still comes.
    await at("2027-10-01");
    await run("billing-run");
    expect(await subjects(member.email, /^Receipt /)).toHaveLength(2);
    await at("2027-10-29");
    await run("member-notices");
    expect(await subjects(member.email, /payment of/)).toHaveLength(1);

    // The member turns them back on from /membership (PUT /api/me/register-fields): reminders again.
    const on = await member.client.put("/api/me/register-fields", { email_notifications_enabled: true });
    expect(on.status).toBe(200);
    expect(on.body.data.email_notifications_enabled).toBe(true);
    await run("member-notices");
    expect(await subjects(member.email, /payment of/)).toHaveLength(2);
  });
});
