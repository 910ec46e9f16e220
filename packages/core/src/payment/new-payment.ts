/**
 * The one builder of a payment record (issue 22: six hand-built copies had drifted). Each kind says
 * what it is for; the fields every payment carries (the member, the gym, the term, the counters at
 * zero, the surcharge from `surchargeOfCharge`, the work-index keys) are written here once.
 *
 * - `scheduled`: a charge of the schedule (the first payment, and each next one the billing run
 *   plans); deterministic id, `upcoming` in the due index, or a pay-in-full taken in person
 *   (`sent`, or `awaiting_payment` for a bank transfer).
 * - `retry`: the whole balance owing, charged at once (`pending_request`, in the in-flight index).
 * - `manual`: a payment staff took another way (`sent`, no surcharge); pays debt (payment/debt.ts).
 * - `break_fee`: the fee of a term cancelled early, due today.
 *
 * Pure: the caller reads the gym and the organisation's settings when it prices the charge.
 */
import { type CivilDate, startOfAucklandDay } from "../billing/calendar";
import type { Debt } from "../billing/debt";
import type { PaymentKindValue } from "../contract/payment";
import { newId } from "../ids";
import type { OrganisationSettings } from "../organisation/settings";
import { type NextCharge, type PriceFacts, priceOnDay } from "../subscription/schedule";
import type { SubscriptionRecord } from "../subscription/store";
import { idempotencyKeyOf, paymentIdOn, scheduledPaymentId } from "./ids";
import { attentionKeys, monthKeys, OPEN_STATUSES, type PaymentRecord, workKeys } from "./store";
import { surchargeOfCharge } from "./surcharge";

/** What a payment copies from its subscription (and the price facts that label a scheduled charge). */
export type PaymentOwner = Partial<PriceFacts> &
  Pick<
    SubscriptionRecord,
    | "organisation_id"
    | "subscription_id"
    | "user_id"
    | "gym_id"
    | "payment_type_id"
    | "is_term_membership"
    | "cooling_period_ends_at"
    | "term_ends_at"
    | "member_name"
    | "member_email"
    | "gym_name"
    | "price_label"
  >;

/** The gym as read when the charge is priced: its surcharge override and destination account. */
export interface PaymentGym {
  card_surcharge_basis_points?: number | null;
  card_surcharge_fixed_cents?: number | null;
  destination_account?: { account_id: string } | null;
}

type Rates = Pick<OrganisationSettings, "card_surcharge_basis_points" | "card_surcharge_fixed_cents">;

interface Charged {
  sub: PaymentOwner;
  type: PaymentKindValue;
  payment_type_id?: string;
  gym: PaymentGym;
  settings: Rates;
}

export interface NewPaymentInputs {
  scheduled: Charged & {
    charge: NextCharge;
    /** A pay-in-full taken in person: how, and by whom. */
    taken?: {
      payment_method: "eftpos" | "cash" | "bank_transfer";
      processed_by?: string;
      at: string;
    };
  };
  retry: Charged & { payment_id: string; amount: number; today: CivilDate; at: string; debt: Debt };
  manual: {
    sub: PaymentOwner;
    amount: number;
    today: CivilDate;
    at: string;
    payment_method: "eftpos" | "cash" | "bank_transfer";
    processed_by: string;
    /** How the amount was split, and the debt left after it. */
    debt_paid: number;
    credit: number;
    debt_after: Debt;
  };
  break_fee: Charged & { amount: number; today: CivilDate; remaining_term_value: number };
}

export type NewPaymentKind = keyof NewPaymentInputs;

/** The price label in effect on a day, from the owner's price facts when it has them. */
function labelOn(sub: PaymentOwner, day: CivilDate): string {
  return sub.price_id ? (priceOnDay(sub as PriceFacts, day).price_label ?? sub.price_label) : sub.price_label;
}

const instant = (date: CivilDate) => startOfAucklandDay(date).toISOString();

function base(sub: PaymentOwner) {
  return {
    organisation_id: sub.organisation_id,
    subscription_id: sub.subscription_id,
    user_id: sub.user_id,
    gym_id: sub.gym_id,
    currency: "nzd",
    joining_fee: 0,
    is_retry: false,
    is_pro_rata: false,
    poll_count: 0,
    balance_owing: 0,
    periods_owing: 0,
    credit_used: 0,
    attempts: 0,
    is_term_membership: sub.is_term_membership,
    cooling_period_ends_at: sub.cooling_period_ends_at,
    term_ends_at: sub.term_ends_at,
    member_name: sub.member_name,
    member_email: sub.member_email,
    gym_name: sub.gym_name,
    price_label: sub.price_label,
    version: 1,
  };
}

function charged(input: Charged, amount: number) {
  return {
    ...base(input.sub),
    type: input.type,
    payment_type_id: input.payment_type_id ?? input.sub.payment_type_id,
    amount,
    surcharge: surchargeOfCharge(input.type, amount, input.settings, input.gym),
    destination_account: input.gym.destination_account?.account_id,
  };
}

/**
 * A new payment's record: in the list index by its due month; an open one (upcoming, pending,
 * awaiting a transfer) in the attention index.
 */
export function newPayment<K extends NewPaymentKind>(kind: K, input: NewPaymentInputs[K]): PaymentRecord {
  const built = build(kind, input);
  const record = { ...built, ...monthKeys(built) };
  return OPEN_STATUSES.includes(record.status) ? { ...record, ...attentionKeys(record) } : record;
}

function build<K extends NewPaymentKind>(kind: K, input: NewPaymentInputs[K]): PaymentRecord {
  switch (kind) {
    case "scheduled": {
      const { charge, taken, sub } = input as NewPaymentInputs["scheduled"];
      const payment_id = scheduledPaymentId(sub.subscription_id, charge.index, charge.due_on);
      const status = taken
        ? taken.payment_method === "bank_transfer"
          ? "awaiting_payment"
          : "sent"
        : "upcoming";
      return {
        ...charged(input as Charged, charge.amount),
        // The label of the price the period is charged at: a price change in effect by the period's
        // first day names the new price (issue 34 item 9: "$24.00 Weekly" beside a $20.00 charge).
        price_label: labelOn(sub, charge.period_start),
        payment_id,
        status,
        joining_fee: charge.joining_fee,
        ...(charge.discount ? { discount: charge.discount } : {}),
        due_on: charge.due_on,
        period_start_at: instant(charge.period_start),
        period_end_at: instant(charge.period_end),
        charge_index: charge.index,
        is_pro_rata: charge.is_pro_rata,
        ...(taken
          ? {
              pif_payment: { id: newId(), payment_method: taken.payment_method },
              ...(status === "sent" ? { processed_by: taken.processed_by, settled_at: taken.at } : {}),
            }
          : workKeys.due(payment_id, charge.due_on)),
      } as PaymentRecord;
    }
    case "retry": {
      const r = input as NewPaymentInputs["retry"];
      return {
        ...charged(r, r.amount),
        payment_id: r.payment_id,
        status: "pending_request",
        due_on: r.today,
        is_retry: true,
        balance_owing: r.debt.balance_owing,
        periods_owing: r.debt.periods_owing,
        attempts: 1,
        idempotency_key: idempotencyKeyOf(r.payment_id),
        claimed_at: r.at,
        ...workKeys.inflight(r.payment_id, r.at),
      } as PaymentRecord;
    }
    case "manual": {
      const m = input as NewPaymentInputs["manual"];
      return {
        ...base(m.sub),
        payment_id: paymentIdOn(m.today),
        status: "sent",
        type: "pif",
        amount: m.amount,
        surcharge: 0,
        due_on: m.today,
        balance_owing: m.debt_after.balance_owing,
        periods_owing: m.debt_after.periods_owing,
        pif_payment: { id: newId(), payment_method: m.payment_method },
        meta: { kind: "manual", debt_paid: m.debt_paid, credit: m.credit },
        processed_by: m.processed_by,
        settled_at: m.at,
        charged_at: m.at,
      } as PaymentRecord;
    }
    case "break_fee": {
      const b = input as NewPaymentInputs["break_fee"];
      const payment_id = paymentIdOn(b.today);
      return {
        ...charged(b, b.amount),
        payment_id,
        status: "upcoming",
        due_on: b.today,
        is_term_membership: true,
        meta: { kind: "break_fee", remaining_term_value: b.remaining_term_value },
        price_label: `Break fee: ${b.sub.price_label}`,
        ...workKeys.due(payment_id, b.today),
      } as PaymentRecord;
    }
  }
  throw new RangeError(`unknown payment kind ${kind}`);
}
