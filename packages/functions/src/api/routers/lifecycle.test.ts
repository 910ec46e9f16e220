import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { addMember } from "../../../../../tests/support/payments";

const api = useSeededApi();
let admin: HttpClient;
let trainer: HttpClient;
let outsider: HttpClient;
let today: string;
let addDays: (d: string, n: number) => string;
let prices: Awaited<ReturnType<typeof import("../../local/seed/offerings")["seedOfferings"]>>["prices"];

let n = 0;
async function member(priceId: string, startIn = 0, name?: string) {
  const { createSubscription } = await import("@gym/core/subscription/service");
  const gymId = api.seed.gyms.ponsonby.gym_id;
  const { user } = await addMember(api.seed, {
    name: name ?? `Life Member${++n}`,
    email: `life${name ? `${++n}-typed` : n}@example.com`,
    gymId,
  });
  const { subscription } = await createSubscription({
    organisation_id: api.seed.organisations.harbour.organisation_id,
    user_id: user.user_id,
    gym_id: gymId,
    price_id: priceId,
    start_date: addDays(today, startIn),
  });
  return { userId: user.user_id, id: subscription.subscription_id };
}

async function record(id: string) {
  const { findSubscription } = await import("@gym/core/subscription/store");
  const sub = await findSubscription(api.seed.organisations.harbour.organisation_id, id);
  if (!sub) throw new Error("no subscription");
  return sub;
}

beforeAll(async () => {
  const { seedOfferings } = await import("../../local/seed/offerings");
  prices = (await seedOfferings(api.seed)).prices;
  const { businessToday } = await import("@gym/core/clock");
  addDays = (await import("@gym/core/billing/calendar")).addDays;
  today = await businessToday();
  [admin, trainer, outsider] = await Promise.all([
    signIn(api.url, "admin@example.com"),
    signIn(api.url, "trainer@example.com"),
    signIn(api.url, "owner@example.org"),
  ]);
});

describe("pause", () => {
  it("spends pause-day credit, keeps history, refuses past the credit, and removes a future pause", async () => {
    const { id } = await member(prices.anytimeWeekly.price_id);
    const body = { pause_start_at: addDays(today, 2), pause_end_at: addDays(today, 12) };
    const paused = await admin.post(`/api/subscriptions/${id}/pause`, body);
    expect(paused.status).toBe(200);
    expect(paused.body.data).toMatchObject({ pause_days_remaining: 20, pause_days_credit: 30 });
    expect(paused.body.data.pauses).toHaveLength(1);
    // The period the pause starts in runs 10 days longer: the next charge moves with it.
    const sub = await record(id);
    expect(sub.lifecycle_events?.at(-1)?.action).toBe("pause");
    const { startOfAucklandDay } = await import("@gym/core/billing/calendar");
    expect(paused.body.data.upcoming_payment.period_end_at).toBe(
      startOfAucklandDay(addDays(today, 17)).toISOString(),
    );

    const again = await admin.post(`/api/subscriptions/${id}/pause`, {
      pause_start_at: addDays(today, 20),
      pause_end_at: addDays(today, 25),
    });
    expect(again.status).toBe(422);
    expect(again.body.errors.pause_start_at[0]).toMatch(/already has a pause/);

    const removed = await admin.delete(`/api/subscriptions/${id}/pause`);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ pause_days_remaining: 30, pauses: [] });

    const tooLong = await admin.post(`/api/subscriptions/${id}/pause`, {
      pause_start_at: addDays(today, 1),
      pause_end_at: addDays(today, 40),
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors.pause_end_at[0]).toBe(
      "This pause is 39 days but only 30 pause days are left.",
    );

    const missing = await admin.post(`/api/subscriptions/${id}/pause`, {});
    expect(missing.status).toBe(422);
  });

  it("removing a pause that had moved the next payment brings it back to its old date (found by the billing simulation)", async () => {
    const { id } = await member(prices.anytimeWeekly.price_id);
    const { runJob } = await import("@gym/core/jobs/run");
    const { findPayment } = await import("@gym/core/payment/store");
    const organisationId = api.seed.organisations.harbour.organisation_id;
    const upcoming = async () => findPayment(organisationId, (await record(id)).upcoming_payment_id ?? "");
    await runJob("billing-run");
    expect((await upcoming())?.due_on).toBe(addDays(today, 7));
    const paused = await admin.post(`/api/subscriptions/${id}/pause`, {
      pause_start_at: addDays(today, 3),
      pause_end_at: addDays(today, 8),
    });
    expect(paused.status).toBe(200);
    expect((await upcoming())?.due_on).toBe(addDays(today, 12));
    // The charged period in progress is the one the pause extends (the member page shows it).
    const { startOfAucklandDay } = await import("@gym/core/billing/calendar");
    const endOf = (days: number) => startOfAucklandDay(addDays(today, days)).toISOString();
    expect(paused.body.data.current_period_end).toBe(endOf(12));
    const removed = await admin.delete(`/api/subscriptions/${id}/pause`);
    expect(removed.status).toBe(200);
    expect(removed.body.data.current_period_end).toBe(endOf(7));
    expect(await upcoming()).toMatchObject({
      status: "upcoming",
      due_on: addDays(today, 7),
      charge_index: 1,
    });
  });

  it("trainers may not pause (403), another organisation gets 404", async () => {
    const { id } = await member(prices.anytimeWeekly.price_id);
    const body = { pause_start_at: addDays(today, 2), pause_end_at: addDays(today, 5) };
    expect((await trainer.post(`/api/subscriptions/${id}/pause`, body)).status).toBe(403);
    expect((await outsider.post(`/api/subscriptions/${id}/pause`, body)).status).toBe(404);
    expect((await trainer.get(`/api/subscriptions/${id}`)).status).toBe(200);
    expect((await outsider.get(`/api/subscriptions/${id}`)).status).toBe(404);
  });
});

describe("the actions the answer offers", () => {
  it("follow the membership: a booked pause is offered for removal, a cancellation for undoing", async () => {
    const { id } = await member(prices.anytimeWeekly.price_id);
    const actions = async () => (await admin.get(`/api/subscriptions/${id}`)).body.data.actions;
    const none = {
      pause: false,
      remove_pause: false,
      cancel: false,
      undo_cancellation: false,
      start_now: false,
      manual_payment: false,
    };
    expect(await actions()).toEqual({ ...none, pause: true, cancel: true, manual_payment: true });
    const body = { pause_start_at: addDays(today, 2), pause_end_at: addDays(today, 5) };
    expect((await admin.post(`/api/subscriptions/${id}/pause`, body)).body.data.actions).toEqual({
      ...none,
      remove_pause: true,
      cancel: true,
      manual_payment: true,
    });
    expect((await admin.delete(`/api/subscriptions/${id}/pause`)).status).toBe(200);
    const cancelled = await admin.post(`/api/subscriptions/${id}/cancel`, { immediate: false });
    expect(cancelled.body.data.actions).toEqual({ ...none, undo_cancellation: true, manual_payment: true });
  });
});

describe("cancel and undo", () => {
  it("a flexi member cancels at the end of the paid period, undo restores it", async () => {
    const { id } = await member(prices.anytimeWeekly.price_id);
    const preview = await admin.get(`/api/subscriptions/${id}/cancellation-preview`);
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ takes_effect_on: addDays(today, 7), break_fee: 0 });
    const cancelled = await admin.post(`/api/subscriptions/${id}/cancel`, {
      cancellation_reasons: ["Moving away"],
      cancellation_comments: "Off to Dunedin",
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      cancellation_reasons: ["Moving away"],
      cancelled_during_cooling_off_period: false,
    });
    expect(cancelled.body.data.undo_cancellation_until).toBe(cancelled.body.data.cancellation_effective_at);
    expect((await admin.post(`/api/subscriptions/${id}/cancel`, {})).status).toBe(409);
    const undone = await admin.post(`/api/subscriptions/${id}/undo-cancellation`);
    expect(undone.status).toBe(200);
    expect(undone.body.data.cancelled_at).toBeNull();
    // The member, told it was cancelled, is told it goes on (tour: they heard nothing more).
    const to = (await record(id)).member_email;
    const mails = (await admin.get(`/api/dev/mail?to=${encodeURIComponent(to)}`)).body.data as {
      subject: string;
      text: string;
    }[];
    const told = mails.find((m) => m.subject === "Your Harbour Fitness Ponsonby membership continues");
    expect(told?.text).toContain(
      "Your cancellation has been undone: your Harbour Fitness Ponsonby membership continues as before.",
    );
    expect(told?.text).toContain(`Your next payment is ${undone.body.data.next_charge.formatted_total}`);
    expect((await admin.post(`/api/subscriptions/${id}/undo-cancellation`)).status).toBe(409);
    expect((await trainer.post(`/api/subscriptions/${id}/cancel`, {})).status).toBe(403);
    expect((await outsider.post(`/api/subscriptions/${id}/cancel`, {})).status).toBe(404);
  });

  it("undoing a cancellation that had ended the schedule plans the next payment again (found by the billing simulation)", async () => {
    const { id } = await member(prices.anytimeWeekly.price_id);
    const { runJob } = await import("@gym/core/jobs/run");
    const { findPayment } = await import("@gym/core/payment/store");
    const organisationId = api.seed.organisations.harbour.organisation_id;
    await runJob("billing-run");
    const charged = await record(id);
    const next = await findPayment(organisationId, charged.upcoming_payment_id ?? "");
    expect(next).toMatchObject({ status: "upcoming", due_on: addDays(today, 7) });
    // Cancelling at the end of the paid week: the next week is never charged.
    expect((await admin.post(`/api/subscriptions/${id}/cancel`, {})).status).toBe(200);
    expect((await record(id)).upcoming_payment_id).toBeUndefined();
    expect(await findPayment(organisationId, next?.payment_id ?? "")).toBeNull();
    // Undone: the membership goes on, so the next week must be charged again.
    expect((await admin.post(`/api/subscriptions/${id}/undo-cancellation`)).status).toBe(200);
    const restored = await record(id);
    expect(restored.upcoming_payment_id).toBe(next?.payment_id);
    expect(await findPayment(organisationId, next?.payment_id ?? "")).toMatchObject({
      status: "upcoming",
      due_on: addDays(today, 7),
      amount: next?.amount,
      surcharge: next?.surcharge,
      period_end_at: next?.period_end_at,
      charge_index: next?.charge_index,
    });
  });

  it("undoing a cancellation made before the run that charged the last paid period plans the next payment again", async () => {
    const { id } = await member(prices.anytimeWeekly.price_id);
    const { runJob } = await import("@gym/core/jobs/run");
    const { findPayment } = await import("@gym/core/payment/store");
    const organisationId = api.seed.organisations.harbour.organisation_id;
    // Cancelled at the end of the first week before it is charged: the run charges it and plans nothing after.
    expect((await admin.post(`/api/subscriptions/${id}/cancel`, {})).status).toBe(200);
    await runJob("billing-run");
    const charged = await findPayment(organisationId, (await record(id)).upcoming_payment_id ?? "");
    expect(charged?.status).not.toBe("upcoming");
    expect((await admin.post(`/api/subscriptions/${id}/undo-cancellation`)).status).toBe(200);
    const next = await findPayment(organisationId, (await record(id)).upcoming_payment_id ?? "");
    expect(next).toMatchObject({ status: "upcoming", due_on: addDays(today, 7), amount: 2400 });
  });

  it("undoing a cancellation after a pause was removed from the charged period plans the period the pause had moved, not the one after it (simulation finding m109)", async () => {
    // m109 (seed 1, 200 × 365): a pause booked inside the period the run then charged (its stored
    // end moved out by the pause), the pause removed (the next payment back to its old date), a
    // cancellation at the end of the paid period (the next payment gone), then undone: the next
    // payment was planned after the charged period's stored end, so the period the removed pause
    // had moved was skipped, never charged, and the one after it charged instead.
    const { id } = await member(prices.anytimeWeekly.price_id);
    const { runJob } = await import("@gym/core/jobs/run");
    const { findPayment } = await import("@gym/core/payment/store");
    const { startOfAucklandDay } = await import("@gym/core/billing/calendar");
    const endOf = (days: number) => startOfAucklandDay(addDays(today, days)).toISOString();
    const organisationId = api.seed.organisations.harbour.organisation_id;
    const upcoming = async () => findPayment(organisationId, (await record(id)).upcoming_payment_id ?? "");
    const body = { pause_start_at: addDays(today, 3), pause_end_at: addDays(today, 8) };
    expect((await admin.post(`/api/subscriptions/${id}/pause`, body)).status).toBe(200);
    await runJob("billing-run");
    // The first week is charged with the pause in it: to day 12.
    expect(await upcoming()).toMatchObject({ due_on: addDays(today, 12), charge_index: 1 });
    expect((await admin.delete(`/api/subscriptions/${id}/pause`)).status).toBe(200);
    const planned = await upcoming();
    expect(planned).toMatchObject({ due_on: addDays(today, 7), charge_index: 1, period_end_at: endOf(14) });
    const cancelled = await admin.post(`/api/subscriptions/${id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.cancellation_effective_at).toBe(endOf(7));
    expect((await record(id)).upcoming_payment_id).toBeUndefined();
    expect((await admin.post(`/api/subscriptions/${id}/undo-cancellation`)).status).toBe(200);
    expect(await upcoming()).toMatchObject({
      payment_id: planned?.payment_id,
      status: "upcoming",
      due_on: addDays(today, 7),
      charge_index: 1,
      period_end_at: endOf(14),
      amount: planned?.amount,
    });
  });

  it("a term member inside cooling-off cancels free; after cooling-off a break fee payment is due", async () => {
    const free = await member(prices.anytimeTerm.price_id);
    const inCooling = await admin.post(`/api/subscriptions/${free.id}/cancel`, { immediate: true });
    expect(inCooling.status).toBe(200);
    expect(inCooling.body.data.cancelled_during_cooling_off_period).toBe(true);
    expect((await record(free.id)).break_fee_payment_id).toBeUndefined();

    const fee = await member(prices.anytimeTerm.price_id);
    const { db } = await import("@gym/core/db/service");
    await db()
      .entities.subscription.patch({
        organisation_id: api.seed.organisations.harbour.organisation_id,
        subscription_id: fee.id,
      })
      .set({ cooling_period_ends_at: new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString() })
      .go();
    const preview = await admin.get(`/api/subscriptions/${fee.id}/cancellation-preview`);
    expect(preview.body.data.in_cooling_off).toBe(false);
    expect(preview.body.data.break_fee).toBeGreaterThan(0);
    // 25 % of the weekly charges the term still had after the paid week.
    expect(preview.body.data.break_fee).toBe(Math.round(preview.body.data.remaining_term_value / 4));
    const cancelled = await admin.post(`/api/subscriptions/${fee.id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    const sub = await record(fee.id);
    const { findPayment } = await import("@gym/core/payment/store");
    const payment = await findPayment(sub.organisation_id, sub.break_fee_payment_id ?? "");
    expect(payment).toMatchObject({ amount: preview.body.data.break_fee, status: "upcoming", due_on: today });
    // The member page lists payments newest due first, and names the break fee as what is due next.
    const page = (await admin.get(`/api/members/${sub.user_id}`)).body.data;
    const dues = page.recent_payments.map((p: { due_on: string }) => p.due_on);
    expect(dues).toEqual([...dues].sort().reverse());
    expect(page.recent_payments.some((p: { id: string }) => p.id === payment?.payment_id)).toBe(true);
    const { nextPaymentLabel } = await import("@gym/core/contract/payment");
    expect(nextPaymentLabel(page.latest_subscription.upcoming_payment)).toBe("Break fee");

    // The member is told (issue 35): the last day, the break fee, and how to undo it while they can.
    const { emailDate } = await import("@gym/core/email/format");
    const mails = (await admin.get(`/api/dev/mail?to=${encodeURIComponent(sub.member_email)}`)).body.data as {
      subject: string;
      text: string;
    }[];
    const told = mails.find((m) => m.subject === "Your Harbour Fitness Ponsonby membership is cancelled");
    expect(told).toBeTruthy();
    const effective = preview.body.data.takes_effect_on;
    expect(told?.text).toContain(`Your last day as a member is ${emailDate(addDays(effective, -1))}.`);
    expect(told?.text).toContain(
      `A break fee of ${preview.body.data.break_fee_charge.formatted_total} is due today`,
    );
    expect(told?.text).toContain(
      `Changed your mind? Ask Harbour Fitness Ponsonby before ${emailDate(effective)}`,
    );
    // Inside cooling-off: no fee, and said so.
    const freeMails = (
      await admin.get(`/api/dev/mail?to=${encodeURIComponent((await record(free.id)).member_email)}`)
    ).body.data as { subject: string; text: string }[];
    const freeTold = freeMails.find((m) => m.subject.endsWith("membership is cancelled"));
    expect(freeTold?.text).toContain("There is no break fee: you cancelled inside your cooling-off period.");
    // Immediate: nothing left to undo.
    expect(freeTold?.text).not.toContain("Changed your mind?");
  });
});

describe("price change", () => {
  it("previews one email per member, refuses a rise without notice, schedules and records history", async () => {
    const a = await member(prices.anytimeWeekly.price_id);
    const b = await member(prices.anytimeWeekly.price_id);
    // The fortnightly price bills differently: refused.
    const wrong = await admin.post("/api/subscriptions/change-price-email-preview", {
      subscription_ids: [a.id],
      price_id: prices.anytimeFortnightly.price_id,
    });
    expect(wrong.status).toBe(422);
    // The staff rate ($15 < $24 weekly) is a decrease: no notice needed, default date = next period end.
    const preview = await admin.post("/api/subscriptions/change-price-email-preview", {
      subscription_ids: [a.id, b.id],
      price_id: prices.staffRate.price_id,
    });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toHaveLength(2);
    expect(preview.body.data[0]).toMatchObject({
      from_amount: 2400,
      to_amount: 1500,
      takes_effect_on: addDays(today, 7),
    });
    expect(preview.body.data[0].text).toContain("$15.00");
    const scheduled = await admin.post("/api/subscriptions/schedule-price-change", {
      subscription_ids: [a.id, b.id],
      price_id: prices.staffRate.price_id,
    });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.data[0].transition_to_price).toBe(prices.staffRate.price_id);
    // Until it takes effect the answer names the price to come and its first day (tour: the staff
    // card said "Price change from …" and never which price); the price in effect is still the old.
    const pending = (await admin.get(`/api/subscriptions/${a.id}`)).body.data;
    expect(pending.pending_price_change).toMatchObject({
      price_id: prices.staffRate.price_id,
      amount: 1500,
      formatted_amount: "$15.00",
      takes_effect_on: addDays(today, 7),
    });
    expect(pending.price.amount).toBe(2400);
    // The picker lists both, each now flagged as already having a change scheduled.
    const candidates = await admin.get(`/api/prices/${prices.anytimeWeekly.price_id}/subscriptions`);
    expect(candidates.status).toBe(200);
    const picked = (candidates.body.data as { id: string; has_scheduled_price_change: boolean }[]).filter(
      (c) => [a.id, b.id].includes(c.id),
    );
    expect(picked).toHaveLength(2);
    expect(picked.every((c) => c.has_scheduled_price_change)).toBe(true);
    // Price changes are admins' work (docs/access-control.md): a trainer is refused.
    expect((await trainer.get(`/api/prices/${prices.anytimeWeekly.price_id}/subscriptions`)).status).toBe(
      403,
    );
    expect((await outsider.get(`/api/prices/${prices.anytimeWeekly.price_id}/subscriptions`)).status).toBe(
      404,
    );
    const history = await admin.get(`/api/users/${a.userId}/price-change-history`);
    expect(history.status).toBe(200);
    expect(history.body.data[0]).toMatchObject({ to_amount: 1500, from_amount: 2400 });
    expect((await outsider.get(`/api/users/${a.userId}/price-change-history`)).status).toBe(404);
    expect(
      (
        await trainer.post("/api/subscriptions/schedule-price-change", {
          subscription_ids: [a.id],
          price_id: prices.staffRate.price_id,
        })
      ).status,
    ).toBe(403);
  });

  it("a rise inside the notice period is 422 with the first date allowed", async () => {
    const a = await member(prices.staffRate.price_id);
    const r = await admin.post("/api/subscriptions/change-price-email-preview", {
      subscription_ids: [a.id],
      price_id: prices.anytimeWeekly.price_id,
      transition_takes_effect_at: addDays(today, 10),
    });
    expect(r.status).toBe(422);
    const [y, m, d] = addDays(today, 30).split("-");
    expect(r.body.errors.transition_takes_effect_at[0]).toBe(
      `Members must be told 30 days before a price rise: choose ${Number(d)}/${m}/${y} or later.`,
    );
    const ok = await admin.post("/api/subscriptions/change-price-email-preview", {
      subscription_ids: [a.id],
      price_id: prices.anytimeWeekly.price_id,
      transition_takes_effect_at: addDays(today, 30),
    });
    expect(ok.status).toBe(200);
  });

  it("refusing several members names each as the spec shows names (title-cased)", async () => {
    const a = await member(prices.staffRate.price_id, 0, "kiri te ao");
    const b = await member(prices.staffRate.price_id);
    const r = await admin.post("/api/subscriptions/change-price-email-preview", {
      subscription_ids: [a.id, b.id],
      price_id: prices.anytimeWeekly.price_id,
      transition_takes_effect_at: addDays(today, 10),
    });
    expect(r.status).toBe(422);
    expect(r.body.errors.transition_takes_effect_at[0]).toMatch(/^Kiri Te Ao: Members must be told 30 days/);
  });
});

describe("names and dates as the spec shows them", () => {
  it("a member typed in lower case is title-cased in the payments list; the activity's dates are en-NZ", async () => {
    const { createSubscription } = await import("@gym/core/subscription/service");
    const gymId = api.seed.gyms.ponsonby.gym_id;
    const { user } = await addMember(api.seed, {
      name: "isla ngata",
      email: "isla.ngata@example.com",
      gymId,
    });
    await createSubscription({
      organisation_id: api.seed.organisations.harbour.organisation_id,
      user_id: user.user_id,
      gym_id: gymId,
      price_id: prices.anytimeWeekly.price_id,
      start_date: addDays(today, 3),
    });
    const payments = await admin.get(`/api/payments?per_page=100&user_id=${user.user_id}`);
    expect(payments.status).toBe(200);
    const mine = (payments.body.data as { user: { id: string; name: string } }[]).filter(
      (p) => p.user.id === user.user_id,
    );
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((p) => p.user.name === "Isla Ngata")).toBe(true);

    const activity = await admin.get(`/api/members/${user.user_id}/activity`);
    expect(activity.status).toBe(200);
    const [y, m, d] = addDays(today, 3).split("-");
    expect(JSON.stringify(activity.body.data)).toContain(`Starts ${Number(d)}/${m}/${y}`);
  });
});

describe("price change without a date", () => {
  it("a rise with From left empty takes effect at each member's first period end the notice allows", async () => {
    const a = await member(prices.staffRate.price_id); // $15 weekly from today
    const rise = { subscription_ids: [a.id], price_id: prices.anytimeWeekly.price_id };
    const preview = await admin.post("/api/subscriptions/change-price-email-preview", rise);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    // Weekly periods end every 7 days from today; the first at least 30 days ahead is day 35.
    expect(preview.body.data[0]).toMatchObject({ takes_effect_on: addDays(today, 35), to_amount: 2400 });
    const scheduled = await admin.post("/api/subscriptions/schedule-price-change", rise);
    expect(scheduled.status).toBe(200);
  });
});

describe("start early and manual payments", () => {
  it("an upcoming member can start today; a started one cannot", async () => {
    const up = await member(prices.anytimeWeekly.price_id, 5);
    const data = await admin.get(`/api/subscriptions/${up.id}/start-early-data`);
    expect(data.status).toBe(200);
    expect(data.body.data).toMatchObject({ allowed: true, start_date: today });
    expect(data.body.data.first_payment).toMatchObject({ due_on: today, amount: 2400 });
    const started = await admin.post(`/api/subscriptions/${up.id}/start-now`);
    expect(started.status).toBe(200);
    expect(started.body.data.start_date).toBe(today);
    expect(started.body.data.upcoming_payment?.due_on).toBe(today);
    expect((await admin.post(`/api/subscriptions/${up.id}/start-now`)).status).toBe(409);
  });

  it("a term member starting early has the term and cooling-off counted from the new start (found by the billing simulation)", async () => {
    const { termEnd } = await import("@gym/core/billing/term");
    const { aucklandDate } = await import("@gym/core/billing/calendar");
    const civil = (iso: string | undefined) => aucklandDate(new Date(iso ?? ""));
    const up = await member(prices.anytimeTerm.price_id, 20);
    const before = await record(up.id);
    expect(civil(before.term_ends_at)).toBe(termEnd(addDays(today, 20), 12, "months"));
    expect((await admin.post(`/api/subscriptions/${up.id}/start-now`)).status).toBe(200);
    const started = await record(up.id);
    expect(civil(started.term_ends_at)).toBe(termEnd(today, 12, "months"));
    expect(civil(started.cooling_period_ends_at)).toBe(addDays(today, 7));
  });

  it("a manual payment clears what is owing first, the rest is credit", async () => {
    const m = await member(prices.anytimeWeekly.price_id);
    const { db } = await import("@gym/core/db/service");
    // The first week's $24.00 failed: owing in the ledger (debt is derived from it, payment/debt.ts).
    const organisation_id = api.seed.organisations.harbour.organisation_id;
    const sub = await record(m.id);
    await db()
      .entities.payment.patch({ organisation_id, payment_id: sub.first_payment_id ?? "" })
      .set({ status: "failed", settled_at: new Date().toISOString() })
      .remove(["work_key", "work_sort"])
      .go();
    await db()
      .entities.subscription.patch({ organisation_id, subscription_id: m.id })
      .set({ balance_owing: 2400, periods_owing: 1 })
      .go();
    const paid = await admin.post(`/api/subscriptions/${m.id}/manual-payment`, {
      amount: 3000,
      payment_method: "cash",
    });
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({ balance_owing: 0, periods_owing: 0 });
    expect((await record(m.id)).credit_balance).toBe(600);
    const bad = await admin.post(`/api/subscriptions/${m.id}/manual-payment`, {
      amount: 0,
      payment_method: "cheque",
    });
    expect(bad.status).toBe(422);
    expect(
      (
        await trainer.post(`/api/subscriptions/${m.id}/manual-payment`, {
          amount: 100,
          payment_method: "cash",
        })
      ).status,
    ).toBe(403);
  });
});

describe("pay in full", () => {
  it("adds a PIF membership to a member without one; bank transfer waits for payment", async () => {
    const gymId = api.seed.gyms.ponsonby.gym_id;
    const { user } = await addMember(api.seed, { name: "Pif Person", email: "pif1@example.com", gymId });
    const body = { price_id: prices.summerPif.price_id, gym_id: gymId, payment_method: "bank_transfer" };
    expect((await trainer.post(`/api/members/${user.user_id}/pif`, body)).status).toBe(403);
    expect((await outsider.post(`/api/members/${user.user_id}/pif`, body)).status).toBe(404);
    const notPif = await admin.post(`/api/members/${user.user_id}/pif`, {
      ...body,
      price_id: prices.anytimeWeekly.price_id,
    });
    expect(notPif.status).toBe(422);
    const added = await admin.post(`/api/members/${user.user_id}/pif`, body);
    expect(added.status).toBe(201);
    expect(added.body.data.first_payment).toMatchObject({ status: "awaiting_payment", amount: 29_900 });
    expect((await admin.post(`/api/members/${user.user_id}/pif`, body)).status).toBe(409);
  });
});

describe("onboarding a pay-in-full member", () => {
  const mailTo = async (to: string) =>
    ((await admin.get("/api/dev/mail")).body.data as { to: string; subject: string; text: string }[]).filter(
      (mail) => mail.to === to,
    );

  it("creates the member on a PIF price, emails a link to finish joining, and can send it again", async () => {
    const organisationId = api.seed.organisations.harbour.organisation_id;
    const gymId = api.seed.gyms.ponsonby.gym_id;
    const body = {
      name: "riley onboard",
      email: "Riley.Onboard@Example.com",
      mobile_number: "021 555 0199",
      price_id: prices.summerPif.price_id,
      gym_id: gymId,
      payment_method: "cash",
    };
    const url = `/api/organisations/${organisationId}/members/onboard-pif`;
    expect((await trainer.post(url, body)).status).toBe(403);
    expect((await outsider.post(url, body)).status).toBe(404);

    const invalid = await admin.post(url, {
      ...body,
      name: " ",
      email: "not-an-email",
      payment_method: "card",
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toMatchObject({
      name: ["Value is required"],
      email: ["Value is not a valid email address"],
      payment_method: ["Choose eftpos, cash or bank transfer."],
    });
    // A refused price writes nothing: the same email can still be onboarded afterwards.
    const notPif = await admin.post(url, { ...body, price_id: prices.anytimeWeekly.price_id });
    expect(notPif.status).toBe(422);
    expect(notPif.body.errors.price_id).toEqual(["Choose a pay-in-full (PIF) price."]);

    const created = await admin.post(url, body);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      member: { name: "riley onboard", email: "riley.onboard@example.com" },
      invite_sent: true,
      subscription: { first_payment: { status: "sent", amount: 29_900 } },
    });
    // The invitation to finish joining, and the receipt of the payment taken at the desk
    // (docs/communications.md).
    const all = await mailTo("riley.onboard@example.com");
    const receipt = /^(Receipt|Tax invoice) \d+:/;
    expect(all.filter((m) => receipt.test(m.subject))).toHaveLength(1);
    const mails = all.filter((m) => !receipt.test(m.subject));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toMatch(/^Finish joining /);
    // To the join site's page, naming the gym (member words and the gym's branding, issue 35).
    const { config } = await import("@gym/core/config");
    expect(mails[0]?.text).toMatch(
      new RegExp(`${config.joinUrl}/set-password\\?token=[^&\\s]+&gym=${api.seed.gyms.ponsonby.uuid}`),
    );

    const again = await admin.post(url, body);
    expect(again.status).toBe(422);
    expect(again.body.errors.email[0]).toMatch(/already in your organisation/);

    const memberId = created.body.data.member.id as string;
    expect((await trainer.post(`/api/members/${memberId}/resend-pif-invite`)).status).toBe(403);
    expect((await outsider.post(`/api/members/${memberId}/resend-pif-invite`)).status).toBe(404);
    const resent = await admin.post(`/api/members/${memberId}/resend-pif-invite`);
    expect(resent.status).toBe(200);
    expect(
      (await mailTo("riley.onboard@example.com")).filter((m) => m.subject.startsWith("Finish joining ")),
    ).toHaveLength(2);
  });

  it("paid by bank transfer, the email says the transfer is awaited, for how much, and how to pay", async () => {
    const organisationId = api.seed.organisations.harbour.organisation_id;
    const gymId = api.seed.gyms.ponsonby.gym_id;
    const created = await admin.post(`/api/organisations/${organisationId}/members/onboard-pif`, {
      name: "tui transfer",
      email: "tui.transfer@example.com",
      price_id: prices.summerPif.price_id,
      gym_id: gymId,
      payment_method: "bank_transfer",
    });
    expect(created.status).toBe(201);
    // The figure is the subscription's own quote of its next money event (payment/quote.ts).
    const quote = created.body.data.subscription.next_charge;
    expect(quote).toMatchObject({ kind: "awaiting_transfer" });
    const [mail] = (await mailTo("tui.transfer@example.com")).filter((m) =>
      m.subject.startsWith("Finish joining "),
    );
    expect(mail.text).toContain(`We are waiting for your bank transfer of ${quote.formatted_total}.`);
    // This gym has no account to pay into on record (the email fixture shows one that has).
    expect(mail.text).toContain(
      'Please ask Harbour Fitness Ponsonby for their bank account, and use the reference "Tui Transfer".',
    );

    // The cash member's email asks for nothing.
    const [cash] = (await mailTo("riley.onboard@example.com")).filter((m) =>
      m.subject.startsWith("Finish joining "),
    );
    expect(cash.text).not.toMatch(/transfer/i);

    // Sent again, it still says so.
    const memberId = created.body.data.member.id as string;
    expect((await admin.post(`/api/members/${memberId}/resend-pif-invite`)).status).toBe(200);
    const [again] = (await mailTo("tui.transfer@example.com")).filter((m) =>
      m.subject.startsWith("Finish joining "),
    );
    expect(again.text).toContain(`We are waiting for your bank transfer of ${quote.formatted_total}.`);
  });

  it("refuses to resend to a member who already set a password", async () => {
    const gymId = api.seed.gyms.ponsonby.gym_id;
    const { user } = await addMember(api.seed, { name: "Has Password", email: "pif2@example.com", gymId });
    const added = await admin.post(`/api/members/${user.user_id}/pif`, {
      price_id: prices.summerPif.price_id,
      gym_id: gymId,
      payment_method: "eftpos",
    });
    expect(added.status).toBe(201);
    const resent = await admin.post(`/api/members/${user.user_id}/resend-pif-invite`);
    expect(resent.status).toBe(409);
    expect(resent.body.message).toBe("This member has already finished registering.");
  });
});
