/**
 * Settlement by webhook. The receivers (functions/src/webhooks) verify signatures, record the
 * call and drop duplicates by event id; these handlers move the payment:
 *  - Stripe `payment_intent.succeeded` / `payment_intent.payment_failed`: our payment id and
 *    organisation travel in the PaymentIntent's metadata. The event's connected `account` must be
 *    the payment's gym's account, and `livemode` must match the gym's connection; otherwise the
 *    event changes nothing.
 *  - Akahu payment updates: the Akahu payment id names our payment through its `payment_ref`.
 * Late, duplicate and out-of-order events change nothing (settle.ts: conditional on
 * `pending_request`). A payment we cannot find is left to polling.
 */
import { db } from "../db/service";
import { appFor, memberAkahuConnection } from "../gym/akahu";
import { log } from "../log";
import { onWebhook, type VerifiedWebhook } from "../webhook-log/receive";
import { gymOf } from "./context";
import { bankOutcome, bankStatus, cardOutcome } from "./providers";
import { applyOutcome } from "./settle";
import { findPayment } from "./store";

export const webhookStats = { stripe: 0, akahu: 0, ignored: 0 };

async function onStripe(event: VerifiedWebhook) {
  if (event.eventType !== "payment_intent.succeeded" && event.eventType !== "payment_intent.payment_failed")
    return;
  const payload = event.payload as {
    account?: string | null;
    livemode?: boolean;
    data?: { object?: Record<string, unknown> };
  };
  const intent = payload.data?.object ?? {};
  const metadata = (intent.metadata ?? {}) as Record<string, string>;
  const organisationId = metadata.organisation_id;
  if (!metadata.payment_id || !organisationId) return;
  if (event.organisationId && event.organisationId !== organisationId) {
    webhookStats.ignored += 1;
    log.warn("stripe event for another organisation's payment ignored", { event_id: event.eventId });
    return;
  }
  const payment = await findPayment(organisationId, metadata.payment_id);
  if (!payment) return;
  const gym = await gymOf(organisationId, payment.gym_id);
  if (!gym.stripe_id || payload.account !== gym.stripe_id) {
    webhookStats.ignored += 1;
    log.warn("stripe event from an account that is not the payment's gym ignored", {
      event_id: event.eventId,
    });
    return;
  }
  if (
    gym.stripe_livemode !== undefined &&
    gym.stripe_livemode !== null &&
    payload.livemode !== gym.stripe_livemode
  ) {
    webhookStats.ignored += 1;
    return;
  }
  webhookStats.stripe += 1;
  await applyOutcome(payment, cardOutcome(intent), { snapshot: payment, source: "webhook" });
}

async function onAkahu(event: VerifiedWebhook) {
  const payload = event.payload as Record<string, unknown>;
  if (String(payload.webhook_type ?? "").toUpperCase() !== "PAYMENT") return;
  const akahuId = String(payload.item_id ?? payload.payment_id ?? "");
  if (!akahuId) return;
  const { data: ref } = await db().entities.paymentRef.get({ provider: "akahu", external_id: akahuId }).go();
  if (!ref || (event.organisationId && ref.organisation_id !== event.organisationId)) return;
  const payment = await findPayment(ref.organisation_id, ref.payment_id);
  if (!payment) return;
  webhookStats.akahu += 1;
  let outcome = payload.status ? bankOutcome({ ...payload, _id: akahuId }) : null;
  if (!outcome || outcome.state === "pending") {
    // The event may only say "something changed": ask Akahu for the payment itself.
    const connection = await memberAkahuConnection(payment.organisation_id, payment.user_id);
    if (!connection) return;
    const app = await appFor(payment.organisation_id, connection.gym_id);
    outcome = await bankStatus(app, connection.token, akahuId);
  }
  await applyOutcome(payment, outcome, { snapshot: payment, source: "webhook" });
}

let registered = false;
/** Registers the handlers once per process (imported by the API app and the jobs). */
export function registerPaymentWebhooks() {
  if (registered) return;
  registered = true;
  onWebhook("stripe", onStripe);
  onWebhook("akahu", onAkahu);
}

registerPaymentWebhooks();
