/**
 * Members of Harbour Fitness Ponsonby in every money state, with up to a year of payment history,
 * so every page has realistic data: active by card and by bank, upcoming start, in grace after a
 * failure, hard-declined, paused, cancelled inside and after the paid period, a term in its
 * cooling-off, PIF awaiting a bank transfer. Subscriptions are made with core's createSubscription
 * (the business clock moved back to their start), past payments are written as the billing run
 * would have left them, and the seed ends with a real billing run for today (whose failing cards
 * put members into grace or hard decline through the real settlement path).
 */
import { addDays, aucklandDate, type CivilDate, startOfAucklandDay } from "@gym/core/billing/calendar";
import { setBusinessClock } from "@gym/core/clock";
import { db } from "@gym/core/db/service";
import { appFor } from "@gym/core/gym/akahu-app";
import { newId } from "@gym/core/ids";
import { everyPayment } from "@gym/core/payment/every-payment";
import { scheduledPaymentId } from "@gym/core/payment/ids";
import { billingRun } from "@gym/core/payment/jobs/billing-run";
import { notePaymentMonths } from "@gym/core/payment/months";
import { attentionKeys, monthKeys, workKeys } from "@gym/core/payment/store";
import { storeAkahuConnection } from "@gym/core/payment-type/bank-connection";
import { saveCard } from "@gym/core/payment-type/card";
import { maskAccountNumber } from "@gym/core/payment-type/present";
import { addPaymentType } from "@gym/core/payment-type/service";
import { akahuProvider } from "@gym/core/providers/akahu/index";
import { stripeProvider } from "@gym/core/providers/stripe/index";
import { backfillRollups } from "@gym/core/rollup/backfill";
import { simulatedAccountsFor } from "@gym/core/simulators/akahu-payments";
import { settleSimulatedNow } from "@gym/core/simulators/simulation";
import { chargeAfterOf } from "@gym/core/subscription/schedule";
import { createSubscription } from "@gym/core/subscription/service";
import { findSubscription, type SubscriptionRecord } from "@gym/core/subscription/store";
import { putRole } from "@gym/core/user/roles";
import { createUser } from "@gym/core/user/service";
import type { SeededIdentity } from "./identity";

type Prices = { weekly: string; term: string; pif: string };

const FIRST = [
  "aroha",
  "ben",
  "chloe",
  "daniel",
  "ella",
  "finn",
  "grace",
  "hemi",
  "isla",
  "jack",
  "kiri",
  "liam",
  "maia",
  "noah",
  "olivia",
  "pita",
  "quinn",
  "ruby",
  "sam",
  "tama",
];
const LAST = ["walker", "ngata", "smith", "patel", "wilson", "te huia", "brown", "chen", "taylor", "king"];

async function card(
  org: string,
  gymId: string,
  account: string,
  user: { user_id: string; email: string; name: string },
  number: string,
) {
  const stripe = stripeProvider();
  const setup = await stripe.createSetupIntent(account, {
    email: user.email,
    name: user.name,
    idempotencyKey: `seed-${user.user_id}`,
  });
  await stripe.confirmSimulatedCard?.(account, setup.setup_intent_id, { number });
  return saveCard(
    org,
    user.user_id,
    gymId,
    account,
    await stripe.retrieveSetupIntent(account, setup.setup_intent_id),
  );
}

async function bank(org: string, gymId: string, user: { user_id: string }, kind: "pays" | "lowfunds") {
  const token = `user_token_sim_${user.user_id}`;
  const accounts = simulatedAccountsFor(token);
  const account = accounts.find((a) => a.id.startsWith(`acc_sim_${kind}_`))!;
  await storeAkahuConnection({ organisationId: org, userId: user.user_id, gymId, token, accounts });
  await akahuProvider().subscribeWebhooks(await appFor(org, gymId), token, {
    webhook_type: "PAYMENT",
    state: org,
  });
  return addPaymentType(org, user.user_id, {
    type: "bank_account",
    status: "active",
    account_number: maskAccountNumber(account.formatted_account),
    name: account.name,
    meta: { akahu_account_id: account.id, bank: account.connection, gym_id: gymId },
    gym_id: gymId,
  });
}

/** Writes the payments the billing run would have made from the start until `until` (all sent), and the upcoming one after. */
async function backfill(sub: SubscriptionRecord, until: CivilDate, stopAt?: CivilDate) {
  const payments: Record<string, unknown>[] = [];
  let previous: { index: number; period_end: CivilDate } | null = null;
  let sum = 0;
  let last: { index: number; period_end: CivilDate; id: string; start: CivilDate } | null = null;
  for (;;) {
    const charge = chargeAfterOf(sub, previous);
    if (!charge || (stopAt && charge.due_on >= stopAt)) break;
    const id = scheduledPaymentId(sub.subscription_id, charge.index, charge.due_on);
    const due = charge.due_on < until;
    const record = {
      organisation_id: sub.organisation_id,
      payment_id: id,
      subscription_id: sub.subscription_id,
      user_id: sub.user_id,
      gym_id: sub.gym_id,
      status: due ? "sent" : "upcoming",
      type: sub.payment_method,
      payment_type_id: sub.payment_type_id,
      amount: charge.amount,
      surcharge: sub.payment_method === "stripe_card" ? Math.round(charge.amount * 0.025) + 30 : 0,
      joining_fee: charge.joining_fee,
      due_on: charge.due_on,
      period_start_at: startOfAucklandDay(charge.period_start).toISOString(),
      period_end_at: startOfAucklandDay(charge.period_end).toISOString(),
      charge_index: charge.index,
      is_pro_rata: charge.is_pro_rata,
      member_name: sub.member_name,
      member_email: sub.member_email,
      gym_name: sub.gym_name,
      price_label: sub.price_label,
      ...monthKeys({ ...sub, payment_id: id, due_on: charge.due_on }),
      ...(due
        ? {
            claimed_at: startOfAucklandDay(charge.due_on).toISOString(),
            charged_at: startOfAucklandDay(charge.due_on).toISOString(),
            settled_at: startOfAucklandDay(charge.due_on).toISOString(),
            idempotency_key: `payment-${id}`,
            stripe_id: sub.payment_method === "stripe_card" ? `pi_seed${id.slice(-14)}` : undefined,
            akahu_id: sub.payment_method === "bank_account" ? `payment_seed${id.slice(-14)}` : undefined,
          }
        : {
            ...workKeys.due(id, charge.due_on),
            ...attentionKeys({ ...sub, payment_id: id, due_on: charge.due_on }),
          }),
    };
    payments.push(record);
    if (due) sum += charge.amount;
    last = { index: charge.index, period_end: charge.period_end, id, start: charge.period_start };
    previous = { index: charge.index, period_end: charge.period_end };
    if (!due) break;
  }
  await notePaymentMonths(payments as { organisation_id: string; due_on: string }[]);
  for (let i = 0; i < payments.length; i += 25) {
    await db()
      .entities.payment.put(payments.slice(i, i + 25) as never)
      .go();
  }
  if (last) {
    await db()
      .entities.subscription.patch({
        organisation_id: sub.organisation_id,
        subscription_id: sub.subscription_id,
      })
      .set({
        payments_sum: sum,
        last_charge_index: last.index,
        last_period_end: last.period_end,
        upcoming_payment_id: payments.at(-1)?.status === "upcoming" ? last.id : undefined,
        latest_payment_id: last.id,
      })
      .remove(sub.upcoming_state && sum > 0 ? ["upcoming_state"] : [])
      .go();
  }
}

/** `work` over every item, at most four at a time, the results in the items' order. */
async function fourAtATime<T, R>(items: T[], work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  };
  await Promise.all([1, 2, 3, 4].map(worker));
  return results;
}

export async function seedMoney(identity: SeededIdentity, prices: Prices) {
  const org = identity.organisations.harbour.organisation_id;
  const gymId = identity.gyms.ponsonby.gym_id;
  const account = "acct_simHarbourPonsonby";
  const now = new Date();
  const today = aucklandDate(now);
  let n = 0;
  /** The next demo member (`member{n}@…`), or the one at `index` among those made together. */
  const person = async (index?: number) => {
    const k = index ?? n;
    n = Math.max(n, k + 1);
    const name = `${FIRST[k % FIRST.length]} ${LAST[Math.floor(k / FIRST.length) % LAST.length]}`;
    const user = await createUser({
      email: `member${k + 1}@harbour.example.nz`,
      name,
      password: "demo-password",
      email_verified: true,
    });
    await putRole({ organisation_id: org, user_id: user.user_id, member_gym_ids: [gymId] });
    return user;
  };
  const subscribeOn = async (
    user: { user_id: string },
    priceId: string,
    start: CivilDate,
    extra: { pif_payment_method?: "bank_transfer" } = {},
  ) => {
    await setBusinessClock(new Date(startOfAucklandDay(start).getTime() + 9 * 3_600_000));
    const made = await createSubscription({
      organisation_id: org,
      user_id: user.user_id,
      gym_id: gymId,
      price_id: priceId,
      start_date: start,
      ...extra,
    });
    return made.subscription;
  };
  const patch = (sub: SubscriptionRecord, set: Record<string, unknown>) =>
    db()
      .entities.subscription.patch({ organisation_id: org, subscription_id: sub.subscription_id })
      .set(set as never)
      .go();

  try {
    // Active by card (the demo member first) and by bank, started up to a year ago.
    // Made four at a time (each person is independent of the others; the business clock is still
    // the real one here), numbered in the same order as one at a time.
    const morgan = identity.people.member;
    const kinds: ("card" | "bank")[] = [...Array(13).fill("card"), ...Array(8).fill("bank")];
    const made = await fourAtATime(kinds, async (kind, i) => {
      const u = await person(i);
      if (kind === "card")
        await card(org, gymId, account, u, i % 3 === 0 ? "5555555555554444" : "4242424242424242");
      else await bank(org, gymId, u, "pays");
      return { user: u as { user_id: string }, kind };
    });
    await card(org, gymId, account, morgan, "4242424242424242");
    const actives = [{ user: morgan as { user_id: string }, kind: "card" as const }, ...made];
    for (const [i, a] of actives.entries()) {
      const start = addDays(today, -(365 - i * 11) + 1);
      await backfill(await subscribeOn(a.user, i % 4 === 3 ? prices.term : prices.weekly, start), today);
    }
    // Upcoming start.
    for (let i = 0; i < 3; i++) {
      const u = await person();
      await card(org, gymId, account, u, "4242424242424242");
      await setBusinessClock(null);
      await createSubscription({
        organisation_id: org,
        user_id: u.user_id,
        gym_id: gymId,
        price_id: prices.weekly,
        start_date: addDays(today, 5 + i * 4),
      });
    }
    // Due today on a card that fails: the billing run below puts them in grace / hard decline.
    for (const number of [
      "4000000000009995",
      "4000000000009995",
      "4000000000009995",
      "4000000000009987",
      "4000000000009987",
    ]) {
      const u = await person();
      await card(org, gymId, account, u, number);
      await backfill(await subscribeOn(u, prices.weekly, addDays(today, -7 * (10 + n))), today);
    }
    // Paused now (a pause that started three days ago and ends in eleven).
    for (let i = 0; i < 2; i++) {
      const u = await person();
      await card(org, gymId, account, u, "4242424242424242");
      const sub = await subscribeOn(u, prices.weekly, addDays(today, -120 - i * 30));
      await backfill(sub, today);
      const start = addDays(today, -3);
      const end = addDays(today, 11);
      await patch(sub, {
        paused_at: startOfAucklandDay(start).toISOString(),
        pause_start_at: startOfAucklandDay(start).toISOString(),
        pause_end_at: startOfAucklandDay(end).toISOString(),
        pauses: [{ id: newId(), start_date: start, end_date: end, created_at: now.toISOString() }],
        pause_days_remaining: 16,
      });
    }
    // Cancelled, still inside the paid period.
    for (let i = 0; i < 2; i++) {
      const u = await person();
      await card(org, gymId, account, u, "4242424242424242");
      const sub = await subscribeOn(u, prices.weekly, addDays(today, -200 - i * 10));
      await backfill(sub, today);
      const fresh = (await findSubscription(org, sub.subscription_id))!;
      await patch(fresh, {
        cancelled_at: now.toISOString(),
        cancellation_effective_at:
          fresh.current_period_end ?? startOfAucklandDay(addDays(today, 5)).toISOString(),
        undo_cancellation_until:
          fresh.current_period_end ?? startOfAucklandDay(addDays(today, 5)).toISOString(),
        cancellation_reasons: ["moving_away"],
      });
    }
    // Cancelled, the paid period over (two months ago).
    for (let i = 0; i < 2; i++) {
      const u = await person();
      await card(org, gymId, account, u, "4242424242424242");
      const ended = addDays(today, -60 - i * 7);
      const sub = await subscribeOn(u, prices.weekly, addDays(today, -300));
      await backfill(sub, today, ended);
      await patch(sub, {
        cancelled_at: startOfAucklandDay(addDays(ended, -10)).toISOString(),
        cancellation_effective_at: startOfAucklandDay(ended).toISOString(),
        undo_cancellation_until: startOfAucklandDay(ended).toISOString(),
        cancellation_reasons: ["too_expensive"],
        upcoming_payment_id: undefined,
      });
    }
    // A 12-month term started three days ago: inside its cooling-off.
    for (let i = 0; i < 2; i++) {
      const u = await person();
      await card(org, gymId, account, u, "4242424242424242");
      await backfill(await subscribeOn(u, prices.term, addDays(today, -3 + i)), today);
    }
    // Pay in full by bank transfer, awaiting the money.
    for (let i = 0; i < 2; i++) {
      const u = await person();
      await subscribeOn(u, prices.pif, today, { pif_payment_method: "bank_transfer" });
    }
    await setBusinessClock(null);
    // Today's run: charges what is due today (the failing cards fail for real).
    await billingRun(new Date());
    await settleSimulatedNow();
    // The past payments above were written directly: recount the dashboard's rollups from them.
    await backfillRollups(org, aucklandDate(new Date()), await everyPayment(org));
  } finally {
    await setBusinessClock(null);
  }
  return { members: n + 1 };
}
