/**
 * Settlement by webhook. The receivers (functions/src/webhooks) verify signatures, record the
 * call and drop duplicates by event id; these handlers move the payment, but only for an event
 * **bound** to it (docs/providers.md "Binding events"): the provider's own id in the event must
 * be the id we stored from our own charge call (or its re-drive with the same idempotency key).
 *  - Stripe `payment_intent.succeeded` / `payment_intent.payment_failed`: the PaymentIntent's
 *    metadata only *finds* the payment. The event's connected `account` must be the payment's
 *    gym's, `livemode` the gym's connection's, `data.object.id` the payment's `stripe_id` and
 *    `data.object.amount` what we charged. An event arriving before we recorded the PaymentIntent
 *    (the charge call's answer not yet written, or lost) is refused too: polling settles that
 *    payment from its own record (or re-drives the charge with the same key, which Stripe answers
 *    with the original PaymentIntent), so a signed event naming someone else's PaymentIntent can
 *    never become the payment's.
 *  - Akahu payment updates: `item_id` finds the payment through `payment_ref` (written with our
 *    own record of the Akahu payment); it must also be the payment's current `akahu_id`, and the
 *    event's `state` must be the payment's organisation.
 * A mismatch is logged and refused: recorded as `refused`, answered 200, nothing changed. Late,
 * duplicate and out-of-order events of the bound charge change nothing (settle.ts: conditional on
 * `pending_request`). A payment we cannot find is left to polling.
 */
import { aucklandDate } from "../billing/calendar";
import { businessNow } from "../clock";
import { getMany } from "../db/get-many";
import { db } from "../db/service";
import { appFor } from "../gym/akahu-app";
import type { GymRecord } from "../gym/service";
import type { Organisation } from "../organisation/service";
import { memberAkahuConnection } from "../payment-type/bank-connection";
import type { PaymentTypeRecord } from "../payment-type/present";
import { type MemberMonthState, memberMonthId } from "../rollup/writes";
import type { SubscriptionRecord } from "../subscription/store";
import type { HandlerResult, VerifiedWebhook } from "../webhook-log/receive";
import { gymOf } from "./context";
import { bankOutcome, bankStatus, cardOutcome } from "./providers";
import { applyOutcome, type SettlementHeld } from "./settle";
import { findPayment, type PaymentRecord } from "./store";

export const webhookStats = { stripe: 0, akahu: 0, ignored: 0, refused: 0 };

function refuse(reason: string): HandlerResult {
  webhookStats.refused += 1;
  return { refused: reason };
}

/** What a Stripe payment event's one batch read found (stripeEventReads). */
interface StripeReads {
  organisation_id: string;
  payment_id: string;
  payment: PaymentRecord | null;
  held: SettlementHeld;
}

/**
 * The reads a Stripe event needs, in one BatchGetItem when it is about one of our PaymentIntents:
 * the connected account's owner (the call's log partition), and what its metadata names (written
 * by our own charge call: payment, gym, subscription, member): the payment, its gym (the binding
 * checks), its subscription and organisation, and the member's month row (the settlement's
 * rollups and receipt). The metadata only says what to read: every record is checked against the
 * payment before use (onStripe, settle.ts), and anything else is read as before.
 */
export async function stripeEventReads(event: {
  type?: string;
  account?: string | null;
  data?: { object?: unknown };
}): Promise<{ owner: { organisation_id: string; gym_id: string | null } | null; prefetched?: StripeReads }> {
  const entities = db().entities;
  const intent = (event.data?.object ?? {}) as { metadata?: Record<string, string> };
  const meta = intent.metadata ?? {};
  const organisation_id = meta.organisation_id;
  const payment_id = meta.payment_id;
  const linkKey = event.account ? { provider: "stripe_account" as const, external_id: event.account } : null;
  const about = event.type === "payment_intent.succeeded" || event.type === "payment_intent.payment_failed";
  if (!about || !organisation_id || !payment_id || !meta.gym_id) {
    if (!linkKey) return { owner: null };
    const [link] = (await getMany([{ entity: entities.providerLink, key: linkKey }])) as (OwnerLink | null)[];
    return { owner: ownerOf(link) };
  }
  const month = aucklandDate(await businessNow()).slice(0, 7);
  const monthKey =
    event.type === "payment_intent.succeeded" && meta.user_id
      ? { organisation_id, gym_id: meta.gym_id, month, user_id: meta.user_id }
      : null;
  // The card charged, named on the receipt (checked against the payment there).
  const typeKey =
    monthKey && meta.payment_type_id
      ? { organisation_id, user_id: monthKey.user_id, payment_type_id: meta.payment_type_id }
      : null;
  const found = await getMany([
    { entity: entities.payment, key: { organisation_id, payment_id } },
    { entity: entities.gym, key: { organisation_id, gym_id: meta.gym_id } },
    { entity: entities.organisation, key: { organisation_id } },
    ...(meta.subscription_id
      ? [{ entity: entities.subscription, key: { organisation_id, subscription_id: meta.subscription_id } }]
      : []),
    ...(monthKey ? [{ entity: entities.memberMonth, key: monthKey }] : []),
    ...(linkKey ? [{ entity: entities.providerLink, key: linkKey }] : []),
    ...(typeKey ? [{ entity: entities.paymentType, key: typeKey }] : []),
    // The member as they are now: the receipt's address (user/recipient.ts).
    ...(monthKey ? [{ entity: entities.user, key: { user_id: monthKey.user_id } }] : []),
  ]);
  const [payment, gym, organisation] = found as [PaymentRecord | null, GymRecord | null, Organisation | null];
  let next = 3;
  const subscription = meta.subscription_id ? (found[next++] as SubscriptionRecord | null) : undefined;
  const monthRow = monthKey ? (found[next++] as MemberMonthState | null) : undefined;
  const link = linkKey ? (found[next++] as OwnerLink | null) : null;
  const paymentType = typeKey ? (found[next++] as PaymentTypeRecord | null) : undefined;
  const user = monthKey ? (found[next++] as { email: string; name: string } | null) : null;
  const months = new Map<string, MemberMonthState>();
  if (monthKey)
    months.set(memberMonthId(monthKey.gym_id, month, monthKey.user_id), {
      paid: monthRow?.paid ?? 0,
      visits: monthRow?.visits ?? 0,
      member_name: monthRow?.member_name,
    });
  return {
    owner: ownerOf(link),
    prefetched: {
      organisation_id,
      payment_id,
      payment,
      held: {
        ...(gym ? { gym } : {}),
        ...(organisation ? { organisation } : {}),
        ...(subscription !== undefined ? { subscription } : {}),
        ...(paymentType ? { paymentType } : {}),
        ...(user ? { recipient: { email: user.email, name: user.name } } : {}),
        months,
      },
    },
  };
}

type OwnerLink = { organisation_id: string; gym_id?: string | null };
const ownerOf = (link: OwnerLink | null) =>
  link ? { organisation_id: link.organisation_id, gym_id: link.gym_id ?? null } : null;

/**
 * Stripe sends a charge's event as soon as it settles, which can be before our own write of the
 * charge call's answer (its PaymentIntent id) has landed: the payment is claimed (`pending_request`)
 * and holds no PaymentIntent yet. The event waits for that write, re-reading the payment a few
 * times over about two seconds; only a charge whose answer never lands (a crash) is left to
 * polling, which re-drives the charge with its key (docs/providers.md "Binding events").
 */
const ANSWER_WAITS_MS = [100, 200, 400, 600, 800];
/**
 * The waits above, times STRIPE_ANSWER_WAIT_SCALE (1 by default). The billing simulation shortens
 * them: it delivers events only after every charge call of the day has finished, so an answer not
 * there yet never lands (a crash) and each wait there is idle time (tests/sim/simulation.ts).
 */
const answerWaitScale = () => {
  // Fails closed: anything but a number from 0 to 1 waits the whole time.
  const scale = Number(process.env.STRIPE_ANSWER_WAIT_SCALE ?? 1);
  return Number.isFinite(scale) && scale >= 0 && scale <= 1 ? scale : 1;
};
async function onceAnswerRecorded(payment: PaymentRecord): Promise<PaymentRecord | null> {
  let current: PaymentRecord | null = payment;
  const scale = answerWaitScale();
  for (const wait of ANSWER_WAITS_MS) {
    await new Promise((resolve) => setTimeout(resolve, wait * scale));
    current = await findPayment(payment.organisation_id, payment.payment_id, { consistent: true });
    if (!current || current.stripe_id || current.status !== "pending_request") return current;
  }
  return current;
}

/** What the receiver read for this event, when it is the payment the metadata names. */
function readsFor(event: VerifiedWebhook, organisationId: string, paymentId: string): StripeReads | null {
  const reads = event.prefetched as StripeReads | undefined;
  return reads?.organisation_id === organisationId && reads.payment_id === paymentId ? reads : null;
}

/** A verified Stripe event (wired to `onWebhook("stripe")` by core.ts `createCore`). */
export async function onStripe(event: VerifiedWebhook): Promise<HandlerResult> {
  if (event.eventType !== "payment_intent.succeeded" && event.eventType !== "payment_intent.payment_failed")
    return;
  const payload = event.payload as {
    account?: string | null;
    livemode?: boolean;
    data?: { object?: Record<string, unknown> };
  };
  const intent = payload.data?.object ?? {};
  const intentId = typeof intent.id === "string" ? intent.id : "";
  const metadata = (intent.metadata ?? {}) as Record<string, string>;
  const organisationId = metadata.organisation_id;
  if (!metadata.payment_id || !organisationId) return;
  if (event.organisationId && event.organisationId !== organisationId)
    return refuse("the PaymentIntent's metadata names another organisation's payment");
  const reads = readsFor(event, organisationId, metadata.payment_id);
  let payment = reads ? reads.payment : await findPayment(organisationId, metadata.payment_id);
  if (payment && !payment.stripe_id && payment.status === "pending_request")
    payment = await onceAnswerRecorded(payment);
  if (!payment) {
    webhookStats.ignored += 1;
    return;
  }
  const held = reads?.held ?? {};
  const gym = held.gym?.gym_id === payment.gym_id ? held.gym : await gymOf(organisationId, payment.gym_id);
  if (!gym.stripe_id || payload.account !== gym.stripe_id)
    return refuse("the event's connected account is not the payment's gym's");
  if (
    gym.stripe_livemode !== undefined &&
    gym.stripe_livemode !== null &&
    payload.livemode !== gym.stripe_livemode
  )
    return refuse("the event's livemode is not the gym's connection's");
  if (!payment.stripe_id)
    return refuse(
      `payment ${payment.payment_id} holds no PaymentIntent yet (event's ${intentId || "none"}): polling settles it`,
    );
  if (intentId !== payment.stripe_id)
    return refuse(
      `the event's PaymentIntent ${intentId || "(none)"} is not payment ${payment.payment_id}'s ${payment.stripe_id}`,
    );
  const charged = payment.amount + payment.surcharge;
  if (typeof intent.amount === "number" && intent.amount !== charged)
    return refuse(`the PaymentIntent's amount ${intent.amount} is not the ${charged} we charged`);
  webhookStats.stripe += 1;
  await applyOutcome(payment, cardOutcome(intent), {
    snapshot: payment,
    source: "webhook",
    held: { ...held, gym },
    call: event.acceptedCall,
  });
}

/** A verified Akahu event (wired to `onWebhook("akahu")` by core.ts `createCore`). */
export async function onAkahu(event: VerifiedWebhook): Promise<HandlerResult> {
  const payload = event.payload as Record<string, unknown>;
  if (String(payload.webhook_type ?? "").toUpperCase() !== "PAYMENT") return;
  const akahuId = String(payload.item_id ?? payload.payment_id ?? "");
  if (!akahuId) return;
  const { data: ref } = await db().entities.paymentRef.get({ provider: "akahu", external_id: akahuId }).go();
  if (!ref) {
    webhookStats.ignored += 1;
    return;
  }
  if (ref.organisation_id !== event.organisationId)
    return refuse("the event's state is not the organisation of the payment its item_id names");
  const payment = await findPayment(ref.organisation_id, ref.payment_id);
  if (!payment) return;
  if (payment.akahu_id !== akahuId)
    return refuse(
      `the event's Akahu payment ${akahuId} is not payment ${payment.payment_id}'s ${payment.akahu_id ?? "(none)"}`,
    );
  webhookStats.akahu += 1;
  let outcome = payload.status ? bankOutcome({ ...payload, _id: akahuId }) : null;
  if (!outcome || outcome.state === "pending") {
    // The event may only say "something changed": ask Akahu for the payment itself.
    const connection = await memberAkahuConnection(payment.organisation_id, payment.user_id);
    if (!connection) return;
    const app = await appFor(payment.organisation_id, connection.gym_id);
    outcome = await bankStatus(app, connection.token, akahuId);
  }
  await applyOutcome(payment, outcome, { snapshot: payment, source: "webhook", call: event.acceptedCall });
}
