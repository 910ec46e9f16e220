/**
 * Stripe's `payout.paid` (docs/accounting.md "Payouts", docs/providers.md "Binding events"): a
 * connected account paid money out to the gym's bank. The event only names the payout: its
 * connected `account` must be the gym's (the provider link found the organisation and gym; the gym
 * must still hold that account, in the same livemode), and what the payout holds is read from
 * Stripe's API on that account with our key, never from the body. Each charge inside is matched to
 * our payment by the PaymentIntent the payment holds (its metadata only finds the payment); a
 * charge that is not one of ours as charged is kept as a line with its problem, so the payout says
 * it does not add up. Recorded once (conditional create): a redelivery changes nothing. The
 * `payout-catch-up` job records a payout whose event never came through the same `recordStripePayout`.
 */
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { aucklandDate } from "../billing/calendar";
import { formatCents } from "../billing/money";
import { getMany } from "../db/get-many";
import { db } from "../db/service";
import { log } from "../log";
import { gymOf } from "../payment/context";
import type { PaymentRecord } from "../payment/store";
import { ProviderError } from "../providers/errors";
import { type StripePayout, stripeProvider } from "../providers/stripe/index";
import type { HandlerResult, VerifiedWebhook } from "../webhook-log/receive";

/** One charge of a payout, as recorded: our payment (or null) and why it does not match (or null). */
export interface PayoutLine {
  payment_id: string | null;
  provider_ref: string | null;
  member_name: string | null;
  amount: number;
  fee: number;
  problem: string | null;
}

/** Each charge of the payout against the payment its metadata names (pure). */
export function matchPayoutCharges(
  payout: Pick<StripePayout, "charges">,
  bound: { organisation_id: string; gym_id: string },
  payments: ReadonlyMap<string, PaymentRecord>,
): PayoutLine[] {
  return payout.charges.map((charge) => {
    const meta = charge.metadata ?? {};
    const ours =
      meta.organisation_id === bound.organisation_id ? payments.get(meta.payment_id ?? "") : undefined;
    const line = {
      payment_id: ours?.payment_id ?? null,
      provider_ref: charge.payment_intent,
      member_name: ours?.member_name ?? null,
      amount: charge.amount,
      fee: charge.fee,
    };
    const problem = !ours
      ? "not one of our payments"
      : ours.stripe_id !== charge.payment_intent
        ? `not the PaymentIntent payment ${ours.payment_id} holds`
        : ours.gym_id !== bound.gym_id
          ? "a payment of another gym"
          : ours.amount + ours.surcharge !== charge.amount
            ? `we charged ${formatCents(ours.amount + ours.surcharge)}`
            : ours.status !== "sent"
              ? `the payment is ${ours.status}, not paid`
              : null;
    return { ...line, payment_id: problem === "not one of our payments" ? null : line.payment_id, problem };
  });
}

async function paymentsNamed(organisationId: string, payout: StripePayout) {
  const ids = [
    ...new Set(
      payout.charges
        .filter((c) => c.metadata?.organisation_id === organisationId && c.metadata.payment_id)
        .map((c) => c.metadata.payment_id),
    ),
  ];
  const read = (await getMany(
    ids.map((payment_id) => ({
      entity: db().entities.payment,
      key: { organisation_id: organisationId, payment_id },
    })),
  )) as (PaymentRecord | null)[];
  return new Map(read.filter((p): p is PaymentRecord => p !== null).map((p) => [p.payment_id, p]));
}

/** What recording a payout did: recorded now, recorded before, or refused (why). */
export type PayoutRecording = "recorded" | "already" | { refused: string };

/**
 * Records payout `payoutId` of the gym's connected account `account` as Stripe's API answers it,
 * once (conditional create): the one path of the `payout.paid` event and of the `payout-catch-up`
 * job (payout-catch-up.ts). `expectedAmount` is what the caller was told the payout is (the event's
 * body, the list's row): another amount is refused. Throws when Stripe does not answer (retry).
 */
export async function recordStripePayout(input: {
  organisationId: string;
  gymId: string;
  account: string;
  payoutId: string;
  expectedAmount?: number;
}): Promise<PayoutRecording> {
  const { organisationId, account, payoutId } = input;
  let payout: StripePayout;
  try {
    payout = await stripeProvider().retrievePayout(account, payoutId);
  } catch (error) {
    // Stripe not answering: fail, so the event is retried. Stripe saying no: not the account's.
    if (error instanceof ProviderError && error.kind === "declined")
      return { refused: `Stripe has no payout ${payoutId} on the gym's account` };
    throw error;
  }
  if (payout.status !== "paid") return { refused: `Stripe says payout ${payoutId} is ${payout.status}` };
  if (input.expectedAmount !== undefined && input.expectedAmount !== payout.amount)
    return { refused: `the event's amount is not payout ${payoutId}'s` };
  const bound = { organisation_id: organisationId, gym_id: input.gymId };
  const lines = matchPayoutCharges(payout, bound, await paymentsNamed(organisationId, payout));
  const fee = lines.reduce((s, l) => s + l.fee, 0);
  try {
    await db()
      .entities.payout.create({
        organisation_id: organisationId,
        arrival_date: aucklandDate(new Date(payout.arrival_date * 1000)),
        payout_id: payout.id,
        gym_id: input.gymId,
        account,
        amount: payout.amount,
        fee,
        gross: lines.reduce((s, l) => s + l.amount, 0),
        lines,
        recorded_at: new Date().toISOString(),
      })
      .go();
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException || /conditional/i.test((error as Error).message))
      return "already";
    throw error;
  }
  const problems = lines.filter((l) => l.problem);
  if (problems.length)
    log.warn("payout does not add up", {
      payout_id: payout.id,
      gym_id: input.gymId,
      problems: problems.length,
    });
  return "recorded";
}

/** A verified Stripe event (wired to `onWebhook("stripe")` by core.ts `createCore`). */
export async function onStripePayout(event: VerifiedWebhook): Promise<HandlerResult> {
  if (event.eventType !== "payout.paid") return;
  const payload = event.payload as {
    account?: string | null;
    livemode?: boolean;
    data?: { object?: { id?: unknown; amount?: unknown } };
  };
  const payoutId = typeof payload.data?.object?.id === "string" ? payload.data.object.id : "";
  if (!payload.account || !payoutId.startsWith("po_")) return { refused: "a payout event names no payout" };
  if (!event.organisationId || !event.gymId)
    return { refused: "the event's connected account is none of our gyms'" };
  const gym = await gymOf(event.organisationId, event.gymId);
  if (!gym.stripe_id || gym.stripe_id !== payload.account)
    return { refused: "the event's connected account is not the gym's" };
  if (typeof gym.stripe_livemode === "boolean" && payload.livemode !== gym.stripe_livemode)
    return { refused: "the event's livemode is not the gym's connection's" };
  const amount = payload.data?.object?.amount;
  const recorded = await recordStripePayout({
    organisationId: event.organisationId,
    gymId: gym.gym_id,
    account: payload.account,
    payoutId,
    expectedAmount: typeof amount === "number" ? amount : undefined,
  });
  if (typeof recorded === "object") return recorded;
}
