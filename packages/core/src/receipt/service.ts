/**
 * Receipts (docs/communications.md "Receipts"): one per paid payment, numbered within the
 * organisation, emailed once, and readable by the member and by staff who see the payment.
 *
 * Issuing is idempotent: the receipt is created with its number in one transaction that also moves
 * the organisation's counter, conditional on the counter being what was read and on no receipt of
 * that payment existing. Two issuers of one payment: one wins, the other finds its receipt. Two
 * payments at once: one transaction fails on the counter and is tried again with the next number,
 * so numbers are unique and have no gaps.
 */
import type { Actor } from "../auth/actor";
import { authorize, policy } from "../auth/policy";
import { staffGymIds, staffOrganisation } from "../auth/scope";
import { aucklandDate, lastDayOf } from "../billing/calendar";
import { gstIncluded } from "../billing/gst";
import { formatCents } from "../billing/money";
import type { Receipt } from "../contract/receipt";
import { db } from "../db/service";
import type { Brand } from "../email/message";
import { sendEmail } from "../email/port";
import { NotFoundError } from "../errors";
import { log } from "../log";
import { getOrganisation } from "../organisation/service";
import { organisationSettings } from "../organisation/settings";
import type { PaymentRecord } from "../payment/store";
import { findPayment } from "../payment/store";
import { type PaymentTypeRecord, paymentTypeLabel } from "../payment-type/present";
import { findPaymentType } from "../payment-type/service";
import { priceOnDay } from "../subscription/schedule";
import { findSubscription, type SubscriptionRecord } from "../subscription/store";
import { membershipName, titleCase } from "../text";
import { memberRecipient, type Recipient } from "../user/recipient";
import { receiptEmail } from "./emails";

export type ReceiptRecord = {
  organisation_id: string;
  payment_id: string;
  number: number;
  issued_at: string;
  content: Omit<Receipt, "number" | "payment_id" | "issued_at">;
};

const methodLabels: Record<string, string> = {
  stripe_card: "Card",
  bank_account: "Bank account (direct debit)",
  eftpos: "EFTPOS",
  cash: "Cash",
  bank_transfer: "Bank transfer",
};

/** How it was paid: the card or account charged when it is known ("Visa •••• 4242"), else its kind. */
function paymentMethod(payment: PaymentRecord, paymentType: PaymentTypeRecord | null): string {
  if (payment.type === "pif") return methodLabels[payment.pif_payment?.payment_method ?? ""] ?? "In person";
  if (paymentType?.type === payment.type) {
    const label = paymentTypeLabel(paymentType);
    return paymentType.type === "bank_account" ? `${label} (direct debit)` : label;
  }
  return methodLabels[payment.type] ?? payment.type;
}

type Organisation = Awaited<ReturnType<typeof getOrganisation>>;

const line = (label: string, amount: number) => ({ label, amount, formatted_amount: formatCents(amount) });

/**
 * The amount's lines: a desk payment (a manual payment) is split into the debt it cleared and the
 * credit it left for the next payments, as it was recorded (`meta.debt_paid`, `meta.credit`; issue 34
 * tour: a $30.00 receipt that did not say $24.00 cleared the debt and $6.00 is credit). Lines that
 * do not add up to the amount (an older record) fall back to the one line. Any other payment: its
 * period at list price, less its promo code (issue 38).
 */
function deskLines(payment: PaymentRecord, description: string, code: string | null) {
  const meta = payment.meta as { kind?: string; debt_paid?: number; credit?: number } | undefined;
  const debt = meta?.debt_paid ?? 0;
  const credit = meta?.credit ?? 0;
  if (meta?.kind === "manual" && payment.amount > 0 && debt + credit === payment.amount)
    return [
      ...(debt > 0 ? [line("Overdue balance cleared", debt)] : []),
      ...(credit > 0 ? [line("Credit towards your next payments", credit)] : []),
    ];
  return discountLines(payment, code, description);
}

/**
 * What the receipt says, from the payment and the organisation's settings at the time it is
 * issued. The organisation, subscription and payment type are read unless the caller already holds
 * them (a held payment type that is not the payment's is not used).
 */
export async function receiptContent(
  payment: PaymentRecord,
  held: {
    organisation?: Organisation | null;
    subscription?: SubscriptionRecord | null;
    paymentType?: PaymentTypeRecord | null;
  } = {},
): Promise<ReceiptRecord["content"]> {
  const charged =
    (payment.type === "stripe_card" || payment.type === "bank_account") && payment.payment_type_id;
  const heldType =
    held.paymentType && held.paymentType.payment_type_id === payment.payment_type_id
      ? held.paymentType
      : undefined;
  const [org, sub, paymentType] = await Promise.all([
    held.organisation ?? getOrganisation(payment.organisation_id),
    held.subscription !== undefined
      ? held.subscription
      : payment.subscription_id
        ? findSubscription(payment.organisation_id, payment.subscription_id)
        : null,
    heldType ??
      (charged ? findPaymentType(payment.organisation_id, payment.user_id, payment.payment_type_id!) : null),
  ]);
  const settings = organisationSettings(org);
  const kind = (payment.meta as { kind?: string } | undefined)?.kind;
  const offering = sub?.offering_name ?? "Membership";
  const membership = membershipName(offering);
  // The price the period was charged at: a price change in effect by its first day names the new
  // price (issue 34 item 9), whatever label a payment planned before the change carried.
  const periodStart = payment.period_start_at ? aucklandDate(new Date(payment.period_start_at)) : null;
  const label =
    (sub && periodStart && !kind && !payment.is_retry
      ? priceOnDay(sub, periodStart).price_label
      : payment.price_label) ??
    sub?.price_label ??
    "";
  const description =
    kind === "manual"
      ? `Payment towards your ${membership}`
      : kind === "break_fee"
        ? label || "Break fee"
        : payment.is_retry
          ? `Overdue balance of your ${membership} (${label}), now paid`
          : `${membership} (${label})${payment.joining_fee ? `, including a ${formatCents(payment.joining_fee)} joining fee` : ""}`;
  const period =
    payment.period_start_at && payment.period_end_at && !payment.is_retry && !kind
      ? {
          start: aucklandDate(new Date(payment.period_start_at)),
          end: lastDayOf(payment.period_end_at),
        }
      : null;
  const total = payment.amount + payment.surcharge;
  const gst = settings.gst_number ? gstIncluded(total) : null;
  const paidAt = payment.settled_at ?? payment.charged_at ?? new Date().toISOString();
  return {
    title: settings.gst_number ? "Tax invoice" : "Receipt",
    date: aucklandDate(new Date(paidAt)),
    supplier: {
      legal_name: settings.legal_name ?? org.name,
      trading_name: payment.gym_name,
      gst_number: settings.gst_number,
    },
    customer: { name: titleCase(payment.member_name), email: payment.member_email },
    description,
    period,
    lines: [
      ...deskLines(payment, description, sub?.promo_code ?? null),
      ...(payment.surcharge
        ? [
            {
              label: "Card surcharge",
              amount: payment.surcharge,
              formatted_amount: formatCents(payment.surcharge),
            },
          ]
        : []),
    ],
    total,
    formatted_total: formatCents(total),
    gst_included: gst,
    formatted_gst_included: gst === null ? null : formatCents(gst),
    payment_method: paymentMethod(payment, paymentType),
  };
}

/**
 * The charge's line, and what was taken off it as lines of their own: a promo code's discount
 * (docs/offers.md) and the credit the charge was paid from (`credit_used`; the hand tour's receipt
 * read "$15.00 Weekly: $9.00" where the reminder said $15.00 less $6.00 credit). The list amount
 * first, then the amounts taken off, so the lines add up to what was paid.
 */
function discountLines(
  payment: { amount: number; discount?: number | null; credit_used?: number | null },
  code: string | null,
  label: string,
) {
  const discount = payment.discount ?? 0;
  const credit = payment.credit_used ?? 0;
  const listed = payment.amount + discount + credit;
  return [
    line(label, listed),
    ...(discount ? [line(code ? `Promo code ${code}` : "Discount", -discount)] : []),
    ...(credit ? [line("Paid from your credit", -credit)] : []),
  ];
}

export function presentReceipt(record: ReceiptRecord): Receipt {
  return {
    payment_id: record.payment_id,
    number: String(record.number).padStart(6, "0"),
    issued_at: record.issued_at,
    ...record.content,
  };
}

/**
 * The organisation's next receipt number: one atomic ADD on its counter, so a billing run settling
 * hundreds of payments at once never waits on, or retries against, the others (a read and a
 * conditional write livelocked there). Numbers are unique and increasing; one is skipped only when
 * the write that was to create the receipt does not happen: two processes issue the same payment's
 * receipt at the same moment (the second create fails and answers the first), a settlement loses
 * its conditional write to a concurrent answer about the same payment, or a process stops between
 * the two writes.
 */
export async function nextReceiptNumber(organisationId: string): Promise<number> {
  const { data: counter } = await db()
    .entities.receiptCounter.update({ organisation_id: organisationId })
    .add({ last_number: 1 })
    .go({ response: "updated_new" });
  const number = counter.last_number;
  if (typeof number !== "number") throw new Error(`no receipt number for ${organisationId}`);
  return number;
}

/**
 * The receipt's email, from the payment it is of, to the member's address as it is now
 * (user/recipient.ts); `brand` when the caller holds the gym's.
 */
export async function receiptMail(
  payment: PaymentRecord,
  receipt: ReceiptRecord,
  brand?: Partial<Brand>,
  recipient?: Recipient,
) {
  const to = recipient ?? (await memberRecipient(payment.user_id, payment));
  return receiptEmail({
    to: to.email,
    brand: {
      name: payment.gym_name,
      ...(brand ?? { ref: { organisation_id: payment.organisation_id, gym_id: payment.gym_id } }),
    },
    receipt: presentReceipt(receipt),
  });
}

async function findReceipt(organisationId: string, paymentId: string): Promise<ReceiptRecord | null> {
  const { data } = await db()
    .entities.receipt.get({ organisation_id: organisationId, payment_id: paymentId })
    .go();
  return (data as ReceiptRecord | null) ?? null;
}

/**
 * Issues the receipt of a paid payment once: `{ receipt, issued }`, `issued` true only for the call
 * that created it. A payment not paid (yet) has none.
 */
export async function issueReceipt(
  organisationId: string,
  paymentId: string,
): Promise<{ receipt: ReceiptRecord; issued: boolean; payment?: PaymentRecord } | null> {
  const existing = await findReceipt(organisationId, paymentId);
  if (existing) return { receipt: existing, issued: false };
  const payment = await findPayment(organisationId, paymentId);
  if (payment?.status !== "sent") return null;
  const content = await receiptContent(payment);
  const number = await nextReceiptNumber(organisationId);
  const record: ReceiptRecord = {
    organisation_id: organisationId,
    payment_id: paymentId,
    number,
    issued_at: new Date().toISOString(),
    content,
  };
  try {
    await db()
      .entities.receipt.create({ ...record, user_id: payment.user_id })
      .go();
    return { receipt: record, issued: true, payment };
  } catch (error) {
    const raced = await findReceipt(organisationId, paymentId);
    if (raced) return { receipt: raced, issued: false };
    throw error;
  }
}

/**
 * Issues a paid payment's receipt and emails it, once: a second call finds it issued and does
 * nothing (so a redelivered outbox event sends no second email). Throws when it could not.
 */
export async function issueAndEmailReceipt(organisationId: string, paymentId: string): Promise<void> {
  const result = await issueReceipt(organisationId, paymentId);
  // The payment as issueReceipt read it: no second read to address the email.
  if (!result?.issued || !result.payment) return;
  await sendEmail(await receiptMail(result.payment, result.receipt));
}

/** What the settlement's own process holds for the receipt's email (no read for them). */
export interface ReceiptMailHeld {
  payment: PaymentRecord;
  receipt: ReceiptRecord;
  brand?: Partial<Brand>;
  recipient?: Recipient;
}

const conditionFailed = (error: unknown) => /conditional/i.test(String((error as Error)?.message));

/**
 * Emails an issued receipt at most once, however often it is asked (a paid settlement's outbox
 * event, redelivered): the receipt's `emailed_at` is claimed first, set only where it is not; the
 * call that loses the claim sends nothing. A send that throws releases its claim and throws, so the
 * outbox delivers the event again. `held`: the payment and receipt as the settlement wrote them.
 */
export async function emailReceiptOnce(
  organisationId: string,
  paymentId: string,
  held?: ReceiptMailHeld,
): Promise<void> {
  const key = { organisation_id: organisationId, payment_id: paymentId };
  const claimed = new Date().toISOString();
  try {
    await db()
      .entities.receipt.patch(key)
      .set({ emailed_at: claimed })
      .where((a, op) => op.notExists(a.emailed_at))
      .go({ response: "none" });
  } catch (error) {
    // Emailed (or being emailed) already. The receipt is written with the event, so it exists.
    if (conditionFailed(error)) return;
    throw error;
  }
  try {
    const [receipt, payment] = held
      ? [held.receipt, held.payment]
      : await Promise.all([findReceipt(organisationId, paymentId), findPayment(organisationId, paymentId)]);
    if (!receipt || !payment) throw new Error(`receipt of ${paymentId} not found`);
    await sendEmail(await receiptMail(payment, receipt, held?.brand, held?.recipient));
  } catch (error) {
    await db()
      .entities.receipt.patch(key)
      .remove(["emailed_at"])
      .where((a, op) => op.eq(a.emailed_at, claimed))
      .go({ response: "none" })
      .catch((release: Error) =>
        log.error("receipt email claim not released", { payment_id: paymentId, error: release.message }),
      );
    throw error;
  }
}

/**
 * The receipt of a payment that was just paid (a transfer marked received, member/hooks.ts),
 * emailed by whoever issued it (once). A payment paid at the desk gets its receipt through the
 * outbox instead (`issueAndEmailReceipt`, wired by core.ts, retried until done). Never throws
 * into the money operation that called it: a failure is logged, and the receipt is issued when it
 * is next read.
 */
export async function receiptForPaidPayment(organisationId: string, paymentId: string): Promise<void> {
  try {
    await issueAndEmailReceipt(organisationId, paymentId);
  } catch (error) {
    log.error("receipt not issued or not emailed", {
      payment_id: paymentId,
      error: (error as Error).message,
    });
  }
}

async function receiptOf(organisationId: string, payment: PaymentRecord | null): Promise<Receipt> {
  if (payment?.status !== "sent") throw new NotFoundError("receipt");
  const result = await issueReceipt(organisationId, payment.payment_id);
  if (!result) throw new NotFoundError("receipt");
  return presentReceipt(result.receipt);
}

/** `GET /api/me/payments/{id}/receipt`: the member's own paid payment's receipt (404 otherwise). */
export async function myReceipt(actor: Actor, paymentId: string): Promise<Receipt> {
  if (!actor.organisationId) throw new NotFoundError("receipt");
  const payment = await findPayment(actor.organisationId, paymentId);
  if (payment && payment.user_id !== actor.userId) throw new NotFoundError("receipt");
  return receiptOf(actor.organisationId, payment);
}

/** `GET /api/payments/{id}/receipt`: staff who see the payment (its gym in their reach). */
export async function staffReceipt(actor: Actor, paymentId: string): Promise<Receipt> {
  const organisationId = staffOrganisation(actor);
  // A receipt is a money document: like the payments it records, not a personal trainer's.
  authorize(policy.seeMoney(actor));
  const payment = await findPayment(organisationId, paymentId);
  if (payment && !staffGymIds(actor).includes(payment.gym_id)) throw new NotFoundError("receipt");
  return receiptOf(organisationId, payment);
}
