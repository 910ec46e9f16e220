/**
 * The daily reconciliation against the providers (docs/providers.md "Reconciliation"): every
 * payment a provider charged and we settled (sent, failed, declined) is checked once with the
 * provider, by the provider id we stored: Stripe's PaymentIntent (status, amount, the payment its
 * metadata names) and Akahu's payment (status, amount). What disagrees is recorded as a
 * `reconciliation_mismatch` (one per payment) and shown on `/expected-payments-debugging`; the
 * run's summary counts it (`mismatches`) for the alarm.
 *
 * Bounded and incremental: settlement puts the payment in the work index under `reconcile#<shard>`
 * sorted by settlement time (settle.ts); the run reads those keys (never a Scan), checks each
 * payment and removes its key, so a daily run reads only what settled since the last one. A
 * provider that cannot be reached leaves the key for the next run.
 *
 * The subscriptions of the payments checked are then checked against the ledger's invariants
 * (ledger-check.ts, docs/billing.md "The ledger's invariants"): `ledger_breaks` in the summary, each
 * logged as a warning; and against the schedule's (schedule-check.ts): a live one with no upcoming
 * payment is `unscheduled` in the summary, logged as an error and alarmed (`SubscriptionsUnscheduled`).
 */
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import type { EntityItem } from "electrodb";
import { formatCents } from "../billing/money";
import { db } from "../db/service";
import { appFor } from "../gym/akahu-app";
import { log } from "../log";
import { memberAkahuConnection } from "../payment-type/bank-connection";
import { findPaymentType } from "../payment-type/service";
import { akahuProvider } from "../providers/akahu/index";
import { ProviderError } from "../providers/errors";
import { stripeProvider } from "../providers/stripe/index";
import { gymOf } from "./context";
import { checkSubscriptionLedgers } from "./ledger-check";
import type { reconciliationMismatchEntity } from "./reconcile-entity";
import { sweepSchedules } from "./schedule-check";
import { type PaymentRecord, workPages } from "./store";

export type MismatchRecord = EntityItem<typeof reconciliationMismatchEntity>;
type Kind = MismatchRecord["kind"];

/** At most this many payments a run; the rest stay in the index for the next run. */
export const RECONCILE_PER_RUN = 20_000;

type ProviderView =
  | { state: "answer"; status: string; amount: number; names?: string; final: boolean; paid: boolean }
  | { state: "missing"; detail: string }
  | { state: "unreachable"; detail: string }
  | { state: "unverifiable"; detail: string };

const stripeFailed = new Set(["requires_payment_method", "canceled"]);
const akahuFailed = new Set(["DECLINED", "ERROR", "CANCELLED"]);

function fromError(error: unknown): ProviderView {
  if (error instanceof ProviderError && error.kind === "declined")
    return { state: "missing", detail: error.detail ?? error.message };
  return { state: "unreachable", detail: (error as Error).message };
}

/** What the provider says about the charge the payment holds. */
async function providerView(p: PaymentRecord): Promise<ProviderView> {
  if (p.type === "stripe_card") {
    const paymentType = p.payment_type_id
      ? await findPaymentType(p.organisation_id, p.user_id, p.payment_type_id)
      : null;
    const account = paymentType?.stripe_account ?? (await gymOf(p.organisation_id, p.gym_id)).stripe_id;
    if (!account || !p.stripe_id) return { state: "unverifiable", detail: "no connected account" };
    try {
      const intent = await stripeProvider().retrievePaymentIntent(account, p.stripe_id);
      return {
        state: "answer",
        status: intent.status,
        amount: intent.amount,
        names: intent.metadata?.payment_id,
        final: intent.status === "succeeded" || stripeFailed.has(intent.status),
        paid: intent.status === "succeeded",
      };
    } catch (error) {
      return fromError(error);
    }
  }
  if (!p.akahu_id) return { state: "unverifiable", detail: "no Akahu payment id" };
  const connection = await memberAkahuConnection(p.organisation_id, p.user_id);
  if (!connection) return { state: "unverifiable", detail: "the member's bank connection is gone" };
  try {
    const app = await appFor(p.organisation_id, connection.gym_id);
    const bank = await akahuProvider().getPayment(app, connection.token, p.akahu_id);
    return {
      state: "answer",
      status: bank.status,
      amount: bank.amount,
      final: bank.status === "SENT" || akahuFailed.has(bank.status),
      paid: bank.status === "SENT",
    };
  } catch (error) {
    return fromError(error);
  }
}

/** The mismatch between our record and the provider's answer, or null when they agree. */
export function compare(
  p: Pick<PaymentRecord, "payment_id" | "status" | "amount" | "surcharge">,
  view: Extract<ProviderView, { state: "answer" }>,
): { kind: Kind; detail: string } | null {
  const charged = p.amount + p.surcharge;
  if (view.names && view.names !== p.payment_id)
    return { kind: "not_ours", detail: `The provider's charge names payment ${view.names}.` };
  const weSayPaid = p.status === "sent";
  if (!view.final)
    return {
      kind: "status",
      detail: `We recorded it ${recordedAs(p.status)}; the provider has not settled it (${view.status}).`,
    };
  if (weSayPaid !== view.paid)
    return {
      kind: "status",
      detail: weSayPaid
        ? `We recorded it paid; the provider says ${view.status}: no money was taken.`
        : `We recorded it ${recordedAs(p.status)}; the provider says ${view.status}: the money was taken.`,
    };
  if (view.amount !== charged)
    return {
      kind: "amount",
      detail: `We charged ${formatCents(charged)}; the provider's charge is ${formatCents(view.amount)}.`,
    };
  return null;
}

/** A payment's status in the words staff read on the reconciliation page. */
const recordedAs = (status: string) =>
  ({
    sent: "paid",
    failed: "failed",
    pending_request: "waiting for the provider",
    upcoming: "not yet charged",
  })[status] ?? status.replace(/_/g, " ");

/** Records a mismatch once per payment (a conditional create). True when it was new. */
async function recordMismatch(
  p: PaymentRecord,
  found: { kind: Kind; detail: string },
  view: ProviderView,
  now: Date,
): Promise<boolean> {
  try {
    await db()
      .entities.reconciliationMismatch.create({
        organisation_id: p.organisation_id,
        payment_id: p.payment_id,
        user_id: p.user_id,
        gym_id: p.gym_id,
        member_name: p.member_name,
        gym_name: p.gym_name,
        due_on: p.due_on,
        provider: p.type === "stripe_card" ? "stripe" : "akahu",
        provider_id: (p.type === "stripe_card" ? p.stripe_id : p.akahu_id) ?? "",
        kind: found.kind,
        our_status: p.status,
        our_amount: p.amount + p.surcharge,
        ...(view.state === "answer" ? { provider_status: view.status, provider_amount: view.amount } : {}),
        detail: found.detail,
        found_at: now.toISOString(),
      })
      .go();
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException || /conditional/i.test((error as Error).message))
      return false;
    throw error;
  }
}

/** Takes the payment out of the reconciliation index (only if it is still there as read). */
async function done(p: PaymentRecord) {
  try {
    await db()
      .entities.payment.patch({ organisation_id: p.organisation_id, payment_id: p.payment_id })
      .remove(["work_key", "work_sort"])
      .where((a, op) => `${op.eq(a.work_key, p.work_key ?? "")} AND ${op.eq(a.work_sort, p.work_sort ?? "")}`)
      .go();
  } catch (error) {
    if (!/conditional/i.test((error as Error).message)) throw error;
  }
}

/** reconciliation job: check what settled since the last run with the providers. */
export async function reconcilePayments(now: Date): Promise<Record<string, number>> {
  const summary = {
    checked: 0,
    matched: 0,
    mismatches: 0,
    already_recorded: 0,
    unreachable: 0,
    unverifiable: 0,
    ledger_breaks: 0,
    unscheduled: 0,
    schedules_swept: 0,
    schedules_ended: 0,
  };
  // The subscriptions of the payments checked: their ledgers are checked too (ledger-check.ts).
  const touched = new Map<string, { organisation_id: string; subscription_id: string }>();
  const withLedgers = async () => {
    const breaks = await checkSubscriptionLedgers([...touched.values()]);
    summary.ledger_breaks = breaks.length;
    for (const b of breaks) log.warn("ledger invariant broken", { ...b });
    // Every live subscription left without an upcoming payment has stopped billing (schedule-check.ts).
    const sweep = await sweepSchedules(now);
    summary.unscheduled = sweep.unscheduled.length;
    summary.schedules_swept = sweep.swept;
    summary.schedules_ended = sweep.ended;
    for (const sub of sweep.unscheduled)
      log.error("subscription has no upcoming payment", {
        organisation_id: sub.organisation_id,
        subscription_id: sub.subscription_id,
      });
    return summary;
  };
  for await (const page of workPages("reconcile", `${now.toISOString()}~`)) {
    for (const p of page) {
      if (summary.checked >= RECONCILE_PER_RUN) return withLedgers();
      summary.checked += 1;
      if (p.subscription_id)
        touched.set(p.subscription_id, {
          organisation_id: p.organisation_id,
          subscription_id: p.subscription_id,
        });
      const view = await providerView(p);
      if (view.state === "unreachable") {
        summary.unreachable += 1;
        continue;
      }
      if (view.state === "unverifiable") {
        summary.unverifiable += 1;
        await done(p);
        continue;
      }
      const found =
        view.state === "missing"
          ? { kind: "missing" as const, detail: `The provider has no such charge (${view.detail}).` }
          : compare(p, view);
      if (!found) summary.matched += 1;
      else if (await recordMismatch(p, found, view, now)) {
        summary.mismatches += 1;
        log.warn("reconciliation mismatch", {
          organisation_id: p.organisation_id,
          payment_id: p.payment_id,
          kind: found.kind,
          detail: found.detail,
        });
      } else summary.already_recorded += 1;
      await done(p);
    }
  }
  return withLedgers();
}

/** The organisation's recorded mismatches, newest payment first (the debugging page). */
export async function organisationMismatches(organisationId: string, limit = 200): Promise<MismatchRecord[]> {
  const { data } = await db()
    .entities.reconciliationMismatch.query.primary({ organisation_id: organisationId })
    .go({ order: "desc", limit });
  return data;
}
