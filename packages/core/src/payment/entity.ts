import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/** Spec §4: sent (successful), upcoming, pending_request, awaiting_payment; anything else failed. */
export const paymentStatuses = [
  "upcoming",
  "pending_request",
  "sent",
  "failed",
  "declined",
  "awaiting_payment",
  "cancelled",
] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];
/** Statuses that never change again. */
export const finalStatuses: readonly PaymentStatus[] = ["sent", "failed", "declined", "cancelled"];

export const paymentTypes = ["stripe_card", "bank_account", "pif"] as const;
export type PaymentKind = (typeof paymentTypes)[number];

/**
 * A payment (spec 001 §3 Payment). Each payment is its own partition (`organisation_id`,
 * `payment_id`: tenant first, and the billing run's writes spread over many partitions).
 * Readable by member (gsi2) and, by due month, by organisation (gsi5, below); no index is keyed on
 * the organisation alone (gsi1 was, every attribute projected: every update of any payment
 * rewrote one partition of it, a write hot spot in a billing run). Scheduled payments have a
 * deterministic id (a ULID whose time is the due date and whose rest is a hash of the subscription
 * and charge index, see ids.ts), so creating "the next upcoming payment" twice creates it once.
 *
 * The work index (gsi3, written as raw attributes `work_key`/`work_sort`, sparse):
 *  - `due#<shard>` / `<due_on>#<payment_id>`: upcoming and unclaimed. The billing run of a date
 *    queries each shard for `work_sort <= <date>~`. Removed by the claim.
 *  - `inflight#<shard>` / `<claimed_at>#<payment_id>`: pending_request (polling, recovery).
 *    Removed by the final write.
 *  - `hold#<organisation_id>#<user_id>` / `<due_on>#<payment_id>`: due but waiting for the
 *    member's new bank consent; moved back to `due#` when they consent.
 * The attention index (gsi4, raw attributes `attention_key`/`attention_sort`, sparse): while a
 * payment is open (upcoming, pending_request, awaiting_payment) it is under
 * `attention#<organisation_id>#<shard>` / `<due_on>#<payment_id>`; set when it is created
 * (`newPayment`), removed when it reaches a final status. The expected-payments page reads the
 * open payments due before today, newest first, from it (expected.ts).
 * The list index (gsi5, raw attributes `month_key`/`month_sort`, every payment):
 * `<organisation_id>#<YYYY-MM>` of the due date / `<due_on>#<payment_id>`, projecting only the
 * staff list's fields (db/table.ts). `GET /api/payments` walks it month by month, newest first
 * (list.ts); the whole-organisation reads (rollup recount, ledger check) walk it too
 * (every-payment.ts). An organisation's writes spread over its months instead of one partition.
 * Every write of a money state is conditional on `version` (and the status it moves from).
 */
export const paymentEntity = new Entity({
  model: { entity: "payment", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    payment_id: { type: "string", required: true, readOnly: true },
    subscription_id: { type: "string", readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    gym_id: { type: "string", required: true },
    status: { type: paymentStatuses, required: true },
    type: { type: paymentTypes, required: true },
    payment_type_id: { type: "string" },
    /** Integer cents: the amount before surcharge, and the card surcharge on top of it. */
    amount: { type: "number", required: true },
    surcharge: { type: "number", required: true, default: 0 },
    /** Of `amount`, the joining fee included with a first payment. */
    joining_fee: { type: "number", required: true, default: 0 },
    /** Cents a promo code took off `amount` (docs/offers.md); the receipt shows it as a line. */
    discount: { type: "number" },
    currency: { type: "string", required: true, default: "nzd" },
    /** Civil date the payment falls due (Pacific/Auckland). */
    due_on: { type: "string", required: true },
    period_start_at: { type: "string" },
    period_end_at: { type: "string" },
    /** The schedule's charge index (-1 a pro-rata first payment; absent for retries and manual). */
    charge_index: { type: "number" },
    is_retry: { type: "boolean", required: true, default: false },
    /** A retry charges the debt of these failed payments. */
    retry_of: { type: "list", items: { type: "string" } },
    is_pro_rata: { type: "boolean", required: true, default: false },
    poll_count: { type: "number", required: true, default: 0 },
    akahu_id: { type: "string" },
    akahu_sid: { type: "string" },
    stripe_id: { type: "string" },
    error_status: { type: "string" },
    error_description: { type: "string" },
    /** hard (not retried: card lost/stolen/expired, account closed, consent revoked) or soft. */
    decline_kind: { type: ["hard", "soft"] as const },
    processed_by: { type: "string" },
    balance_owing: { type: "number", required: true, default: 0 },
    periods_owing: { type: "number", required: true, default: 0 },
    credit_used: { type: "number", required: true, default: 0 },
    force_amount: { type: "number" },
    destination_account: { type: "string" },
    is_term_membership: { type: "boolean", required: true, default: false },
    cooling_period_ends_at: { type: "string" },
    term_ends_at: { type: "string" },
    meta: { type: "any" },
    tasks: { type: "list", items: { type: "string" } },
    pif_payment: {
      type: "map",
      properties: {
        id: { type: "string", required: true },
        payment_method: { type: ["eftpos", "cash", "bank_transfer"] as const, required: true },
      },
    },

    // Charging machinery.
    /** The provider idempotency key: derived from the payment id, the same on every re-drive. */
    idempotency_key: { type: "string" },
    claimed_at: { type: "string" },
    /** When the provider call was last attempted; `charged_at` when its answer was recorded. */
    attempted_at: { type: "string" },
    attempts: { type: "number", required: true, default: 0 },
    charged_at: { type: "string" },
    settled_at: { type: "string" },
    /** Why an upcoming payment is not being charged (e.g. `bank_consent`). */
    waiting_for: { type: "string" },

    // Copies for lists (no read per row).
    member_name: { type: "string", required: true },
    member_email: { type: "string", required: true },
    gym_name: { type: "string", required: true },
    price_label: { type: "string" },

    work_key: { type: "string", field: "gsi3pk" },
    /** Sparse gsi4 while the payment is open (upcoming, pending_request, awaiting_payment): store.ts `attentionKeys`. */
    attention_key: { type: "string", field: "gsi4pk" },
    attention_sort: { type: "string", field: "gsi4sk" },
    work_sort: { type: "string", field: "gsi3sk" },
    /** gsi5, every payment: `<organisation_id>#<YYYY-MM>` of `due_on` / `<due_on>#<payment_id>` (store.ts `monthKeys`). */
    month_key: { type: "string", field: "gsi5pk" },
    month_sort: { type: "string", field: "gsi5sk" },
    version: { type: "number", required: true, default: 1 },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id", "payment_id"] },
      sk: { field: "sk", composite: [] },
    },
    byMember: {
      index: "gsi2",
      pk: { field: "gsi2pk", composite: ["organisation_id", "user_id"] },
      sk: { field: "gsi2sk", composite: ["payment_id"] },
    },
  },
});

/**
 * Finds our payment from a provider's id when the provider's event names only its own id (Akahu
 * payment webhooks carry the Akahu payment id). Written with the payment's record write.
 */
export const paymentRefEntity = new Entity({
  model: { entity: "payment_ref", version: "1", service: SERVICE },
  attributes: {
    provider: { type: ["akahu", "stripe"] as const, required: true, readOnly: true },
    external_id: { type: "string", required: true, readOnly: true },
    organisation_id: { type: "string", required: true, readOnly: true },
    payment_id: { type: "string", required: true, readOnly: true },
    created_at: { type: "string", required: true, readOnly: true },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["provider", "external_id"] },
      sk: { field: "sk", composite: [] },
    },
  },
});

/**
 * The months an organisation has payments due in: one item per month (`YYYY-MM`), each a
 * partition of the list index (gsi5, `month_key`). The staff list walks these months newest first
 * instead of guessing which are empty (payment/months.ts). Written, idempotently, before the
 * transaction that creates a payment due in the month, so a month with payments is always named
 * (a month named whose payment was never written reads as empty).
 */
export const paymentMonthEntity = new Entity({
  model: { entity: "payment_month", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    month: { type: "string", required: true, readOnly: true },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["month"] },
    },
  },
});
