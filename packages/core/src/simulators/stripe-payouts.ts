import { randomBytes } from "node:crypto";
import { type CivilDate, startOfAucklandDay } from "../billing/calendar";
import { ProviderError } from "../providers/errors";
import type { StripePayout, StripePayoutCharge, StripePayoutSummary } from "../providers/stripe/port";
import { signStripePayload } from "../providers/stripe/verify";
import { onSimulatedReset, type SimulatedWebhook, scheduleSettlement } from "./simulation";
import { simulatedSucceededIntents } from "./stripe-payments";

/**
 * The simulated Stripe's payouts (docs/accounting.md "Payouts"): `paySimulatedStripePayouts(day)`
 * pays each connected account's succeeded charges not paid out before into one payout arriving that
 * day, less Stripe's fee on each (2.7 % + 30c, New Zealand cards, GST inclusive), and sends its
 * signed `payout.paid` event asynchronously, like a charge's settlement (a timer, or
 * `settleSimulatedNow`). `retrieveSimulatedPayout` answers the payout with its charges, as
 * `payouts.retrieve` + `balanceTransactions.list({ payout })` do.
 */
export const SIMULATED_STRIPE_FEE = { basisPoints: 270, fixedCents: 30 };

const payouts = new Map<string, Map<string, StripePayout>>();
const paidOut = new Set<string>();
onSimulatedReset(() => {
  payouts.clear();
  paidOut.clear();
});

export const simulatedStripeFee = (amount: number) =>
  Math.round((amount * SIMULATED_STRIPE_FEE.basisPoints) / 10_000) + SIMULATED_STRIPE_FEE.fixedCents;

function payoutEvent(account: string, payout: StripePayout, secret: string): SimulatedWebhook {
  const rawBody = JSON.stringify(
    {
      id: `evt_sim${randomBytes(9).toString("hex")}`,
      object: "event",
      api_version: "2025-10-29.clover",
      account,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: "payout.paid",
      data: {
        object: {
          id: payout.id,
          object: "payout",
          amount: payout.amount,
          arrival_date: payout.arrival_date,
          currency: "nzd",
          status: payout.status,
          method: "standard",
          type: "bank_account",
          automatic: true,
          livemode: false,
        },
      },
    },
    null,
    2,
  );
  return {
    provider: "stripe",
    type: "payout.paid",
    rawBody,
    sign: (body) => ({
      "content-type": "application/json; charset=utf-8",
      "stripe-signature": signStripePayload(body, secret),
      "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
    }),
  };
}

/**
 * Pays out, per connected account, the succeeded charges not paid out before: one payout arriving
 * on `arrival` (an Auckland day). Its `payout.paid` event is delivered asynchronously. Answers the
 * payouts made.
 */
export function paySimulatedStripePayouts(
  arrival: CivilDate,
  webhookSecret: string,
): { account: string; payout: StripePayout }[] {
  const made: { account: string; payout: StripePayout }[] = [];
  for (const [account, intents] of simulatedSucceededIntents()) {
    const charges: StripePayoutCharge[] = [];
    for (const intent of intents) {
      if (paidOut.has(intent.id)) continue;
      paidOut.add(intent.id);
      const fee = simulatedStripeFee(intent.amount);
      charges.push({
        payment_intent: intent.id,
        metadata: { ...intent.metadata },
        amount: intent.amount,
        fee,
        net: intent.amount - fee,
      });
    }
    if (!charges.length) continue;
    const payout: StripePayout = {
      id: `po_sim${randomBytes(9).toString("hex")}`,
      status: "paid",
      amount: charges.reduce((s, c) => s + c.net, 0),
      arrival_date: Math.floor(startOfAucklandDay(arrival).getTime() / 1000),
      charges,
    };
    const own = payouts.get(account) ?? new Map<string, StripePayout>();
    own.set(payout.id, payout);
    payouts.set(account, own);
    scheduleSettlement(payout.id, () => [payoutEvent(account, payout, webhookSecret)]);
    made.push({ account, payout });
  }
  return made;
}

export function retrieveSimulatedPayout(account: string, id: string): StripePayout {
  const payout = payouts.get(account)?.get(id);
  if (!payout)
    throw new ProviderError(
      "stripe",
      "Stripe did not accept the request.",
      "declined",
      `No such payout: '${id}'`,
    );
  return structuredClone(payout);
}

/** `payouts.list({ arrival_date: { gte } })` on the account: its payouts (no charges), newest first. */
export function listSimulatedPayouts(account: string, arrivedSince: number): StripePayoutSummary[] {
  return [...(payouts.get(account)?.values() ?? [])]
    .filter((p) => p.arrival_date >= arrivedSince)
    .reverse()
    .map(({ charges: _, ...summary }) => summary);
}

/** Every payout the simulated Stripe made, per account, oldest first, with its charges (for the simulation's books). */
export function simulatedStripePayouts(): [account: string, payouts: StripePayout[]][] {
  return [...payouts].map(([account, own]) => [account, [...own.values()].map((p) => structuredClone(p))]);
}
