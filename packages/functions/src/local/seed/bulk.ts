/**
 * A large organisation for the bench (`npm run seed -- --members 10000`, `npm run bench -- --billing`):
 * one gym, a weekly price, N members each with a saved card (simulated Stripe, in this process) and
 * an active weekly subscription whose upcoming payment is in the due index. Anchors are spread over
 * seven days, so one business day has about N/7 payments due. Written with batch writes (25 items a
 * request), the records exactly as the app writes them (ElectroDB entities, the same keys).
 */
import { addDays, type CivilDate, startOfAucklandDay } from "@gym/core/billing/calendar";
import { db } from "@gym/core/db/service";
import { recountPeople } from "@gym/core/gym/counts";
import { createGym } from "@gym/core/gym/service";
import { newId } from "@gym/core/ids";
import { nameKeyOf, termsOf } from "@gym/core/member/search-index";
import { createOrganisation } from "@gym/core/organisation/service";
import { scheduledPaymentId } from "@gym/core/payment/ids";
import { notePaymentMonths } from "@gym/core/payment/months";
import { attentionKeys, monthKeys, workKeys } from "@gym/core/payment/store";
import { linkProviderId } from "@gym/core/providers/links";
import { stripeProvider } from "@gym/core/providers/stripe/index";
import { writeRecount } from "@gym/core/rollup/backfill";
import { type ScheduledLike, scheduledChanges } from "@gym/core/rollup/money";
import type { RollupChange } from "@gym/core/rollup/writes";
import { scheduleKeys } from "@gym/core/subscription/store";
import { putRole } from "@gym/core/user/roles";
import { createUser } from "@gym/core/user/service";
import { DEMO_PASSWORD } from "./identity";

export interface BulkOrganisation {
  organisation_id: string;
  /** The organisation admin to sign in as (password: the demo password). */
  admin_email: string;
  gym_id: string;
  price_id: string;
  members: number;
  /** The first due date; member i is due on firstDue + (i mod 7). */
  firstDue: CivilDate;
}

const FIRST = [
  "aroha",
  "james",
  "mere",
  "liam",
  "olivia",
  "wiremu",
  "charlotte",
  "noah",
  "isla",
  "tama",
  "amelia",
  "jack",
  "ava",
  "leo",
  "mia",
  "hemi",
  "sophie",
  "oliver",
  "ruby",
  "nikau",
  "grace",
  "lucas",
  "ella",
  "mateo",
  "zoe",
  "finn",
  "hana",
  "eli",
  "anahera",
  "kai",
];
const LAST = [
  "walker",
  "smith",
  "ngata",
  "wilson",
  "brown",
  "taylor",
  "te whiu",
  "thompson",
  "nguyen",
  "patel",
  "harris",
  "king",
  "o'connor",
  "white",
  "tūhoe",
  "clarke",
  "martin",
  "singh",
  "kumar",
  "young",
  "mitchell",
  "campbell",
  "robinson",
  "parata",
  "scott",
  "wood",
  "hall",
  "edwards",
  "turner",
  "fa'amausili",
  "li",
  "chen",
  "stewart",
  "moore",
  "anderson",
  "jackson",
  "lee",
  "murphy",
  "cooper",
  "hughes",
];

/** Member i's name: varied first and last names (as the search index sees real ones), unique by a number. */
export function bulkMemberName(i: number): string {
  return `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}${i >= FIRST.length * LAST.length ? ` ${Math.floor(i / (FIRST.length * LAST.length)) + 1}` : ""}`;
}

/** Batch writes in flight at once (DynamoDB Local answers several side by side). */
const WRITERS = 8;

async function inBatches<T>(
  items: T[],
  size: number,
  concurrency: number,
  write: (batch: T[]) => Promise<unknown>,
) {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < batches.length) await write(batches[next++]);
    }),
  );
}

export async function seedBulkOrganisation(options: {
  members: number;
  firstDue: CivilDate;
  onProgress?: (done: number, total: number) => void;
}): Promise<BulkOrganisation> {
  const org = await createOrganisation({ name: `Bench Fitness ${options.members}` });
  const gym = await createGym({ organisation_id: org.organisation_id, name: "Bench Fitness Central" });
  const adminEmail = `owner-${org.organisation_id.slice(-8).toLowerCase()}@bench.example.nz`;
  const admin = await createUser({
    email: adminEmail,
    name: "bench owner",
    password: DEMO_PASSWORD,
    email_verified: true,
  });
  await putRole({ organisation_id: org.organisation_id, user_id: admin.user_id, org_role: "admin" });
  const account = `acct_simBench${newId().slice(-10)}`;
  await db()
    .entities.gym.patch({ organisation_id: org.organisation_id, gym_id: gym.gym_id })
    .set({
      stripe_id: account,
      stripe_livemode: false,
      stripe_connected_at: new Date().toISOString(),
      destination_account: {
        account_id: newId(),
        name: "Bench Fitness Ltd",
        bank_account_number: "12-3140-0171323-50",
        updated_at: new Date().toISOString(),
      },
    })
    .go();
  await linkProviderId("stripe_account", account, {
    organisation_id: org.organisation_id,
    gym_id: gym.gym_id,
  });
  const offeringId = newId();
  await db()
    .entities.offering.create({
      organisation_id: org.organisation_id,
      offering_id: offeringId,
      name: "Anytime",
      type: "24_7",
    })
    .go();
  const priceId = newId();
  const amount = 2_400;
  await db()
    .entities.price.create({
      organisation_id: org.organisation_id,
      price_id: priceId,
      offering_id: offeringId,
      amount,
      billing_frequency: "weekly",
      grouping_unique_identifier: newId(),
      subscriptions_count: options.members,
    })
    .go();

  const stripe = stripeProvider();
  const confirm = stripe.confirmSimulatedCard;
  if (!confirm) throw new Error("The bulk seed needs the simulated Stripe adapter.");
  const now = new Date().toISOString();
  const chunk = 1_000;
  // The expected-payments page's days ahead count the upcoming payments (rollup/money.ts).
  const scheduled: RollupChange[] = [];
  for (let from = 0; from < options.members; from += chunk) {
    const users: Record<string, unknown>[] = [];
    const members: Record<string, unknown>[] = [];
    const terms: Record<string, unknown>[] = [];
    const roles: Record<string, unknown>[] = [];
    const types: Record<string, unknown>[] = [];
    const subs: Record<string, unknown>[] = [];
    const payments: Record<string, unknown>[] = [];
    for (let i = from; i < Math.min(options.members, from + chunk); i++) {
      const userId = newId();
      const name = bulkMemberName(i);
      const email = `${name.replace(/[^a-z]+/g, ".")}.${i + 1}@example.nz`;
      const setup = await stripe.createSetupIntent(account, {
        email,
        name,
        idempotencyKey: `bench-setup-${userId}`,
      });
      const card = await confirm.call(stripe, account, setup.setup_intent_id, { number: "4242424242424242" });
      const typeId = newId();
      const subscriptionId = newId();
      const due = addDays(options.firstDue, i % 7);
      const start = addDays(due, -7);
      const paymentId = scheduledPaymentId(subscriptionId, 1, due);
      users.push({ user_id: userId, email, name, email_verified_at: now });
      roles.push({ organisation_id: org.organisation_id, user_id: userId, member_gym_ids: [gym.gym_id] });
      // The organisation's member record and its search terms, as indexMember writes them.
      const searchTerms = termsOf(name, email);
      members.push({
        organisation_id: org.organisation_id,
        user_id: userId,
        name,
        email,
        name_key: nameKeyOf(name),
        joined_at: startOfAucklandDay(addDays(options.firstDue, (i % 7) - 7 - (i % 300))).toISOString(),
        gym_ids: [gym.gym_id],
        tags: i % 10 === 0 ? ["early bird"] : [],
        latest_subscription_id: subscriptionId,
        search_terms: searchTerms,
      });
      for (const term of searchTerms)
        terms.push({
          organisation_id: org.organisation_id,
          initial: term[0],
          term,
          user_id: userId,
          name,
          email,
          gym_ids: [gym.gym_id],
        });
      types.push({
        organisation_id: org.organisation_id,
        user_id: userId,
        payment_type_id: typeId,
        type: "stripe_card",
        is_default: true,
        status: "active",
        card_type: card.card?.brand ?? "visa",
        exp_month: card.card?.exp_month,
        exp_year: card.card?.exp_year,
        last_four: card.card?.last4,
        stripe_customer_id: card.customer_id,
        stripe_payment_method_id: card.payment_method_id ?? undefined,
        stripe_account: account,
        gym_id: gym.gym_id,
      });
      subs.push({
        organisation_id: org.organisation_id,
        subscription_id: subscriptionId,
        ...scheduleKeys({ subscription_id: subscriptionId }),
        user_id: userId,
        gym_id: gym.gym_id,
        offering_id: offeringId,
        price_id: priceId,
        payment_type_id: typeId,
        payment_method: "stripe_card",
        start_date: start,
        billing_date: start,
        amount,
        billing_frequency: "weekly",
        joining_fee: 0,
        current_period_start: startOfAucklandDay(start).toISOString(),
        current_period_end: startOfAucklandDay(due).toISOString(),
        payments_sum: amount,
        last_charge_index: 1,
        last_period_end: addDays(due, 7),
        upcoming_payment_id: paymentId,
        member_name: name,
        member_email: email,
        gym_name: gym.name,
        offering_name: "Anytime",
        price_label: "$24.00 Weekly",
      });
      payments.push({
        organisation_id: org.organisation_id,
        payment_id: paymentId,
        subscription_id: subscriptionId,
        user_id: userId,
        gym_id: gym.gym_id,
        status: "upcoming",
        type: "stripe_card",
        payment_type_id: typeId,
        amount,
        surcharge: 0,
        due_on: due,
        period_start_at: startOfAucklandDay(due).toISOString(),
        period_end_at: startOfAucklandDay(addDays(due, 7)).toISOString(),
        charge_index: 1,
        member_name: name,
        member_email: email,
        gym_name: gym.name,
        price_label: "$24.00 Weekly",
        ...workKeys.due(paymentId, due),
        ...attentionKeys({ organisation_id: org.organisation_id, payment_id: paymentId, due_on: due }),
        ...monthKeys({ organisation_id: org.organisation_id, payment_id: paymentId, due_on: due }),
      });
    }
    // Every entity's batches side by side (BatchWrite, 25 items a request, WRITERS in flight):
    // the items are independent, and one kind after another left DynamoDB Local idle between them.
    const d = db().entities;
    const batches: (() => Promise<unknown>)[] = [];
    const add = (items: Record<string, unknown>[], put: (batch: never) => { go(): Promise<unknown> }) => {
      for (let i = 0; i < items.length; i += 25) {
        const batch = items.slice(i, i + 25);
        batches.push(() => put(batch as never).go());
      }
    };
    add(users, (b) => d.user.put(b));
    add(roles, (b) => d.role.put(b));
    add(members, (b) => d.member.put(b));
    add(terms, (b) => d.memberSearchTerm.put(b));
    add(types, (b) => d.paymentType.put(b));
    add(subs, (b) => d.subscription.put(b));
    add(payments, (b) => d.payment.put(b));
    for (const p of payments) scheduled.push(...scheduledChanges(null, p as unknown as ScheduledLike));
    await notePaymentMonths(payments as { organisation_id: string; due_on: string }[]);
    await inBatches(batches, 1, WRITERS, ([write]) => write());
    options.onProgress?.(Math.min(options.members, from + chunk), options.members);
  }
  // The gyms list's staff and member counts (kept by putRole, which the batch writes bypass).
  await recountPeople(org.organisation_id);
  // The scheduled-payment counters (kept by the payments' own writes, which the batch writes bypass).
  await writeRecount(scheduled, org.organisation_id);
  return {
    organisation_id: org.organisation_id,
    admin_email: adminEmail,
    gym_id: gym.gym_id,
    price_id: priceId,
    members: options.members,
    firstDue: options.firstDue,
  };
}
