import { Entity } from "electrodb";
import { billingFrequencies } from "../billing/frequency";
import { SERVICE, timestamps } from "../db/entity";

/**
 * A member's subscription to a price at a gym (spec 001 §3 Subscription). Keyed by organisation
 * first (tenancy); readable by member (gsi1), by gym (gsi2) and by price (gsi3). Written only
 * with a `version` condition (optimistic concurrency): settlement, dunning and lifecycle calls
 * change the same record.
 *
 * The schedule inputs (anchor `billing_date`, `start_date`, the price's amount and frequency at
 * subscription time, pauses, cancellation, term, PIF end) are on the record so that the pure
 * schedule function (billing/schedule.ts) answers the next charge from the record alone. The
 * billing state (`last_charge_index`, `last_period_end`, `upcoming_payment_id`) says how far the
 * run has gone; the debt (`balance_owing`, `periods_owing`, `grace_period_ends_at`) is dunning's.
 * Names are copied (`member_name`, `gym_name`, `price_label`) so lists need no read per row.
 */
export const subscriptionEntity = new Entity({
  model: { entity: "subscription", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    subscription_id: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    gym_id: { type: "string", required: true },
    offering_id: { type: "string", required: true },
    price_id: { type: "string", required: true },
    /** The payment type charged (the member's default when the subscription was made or switched). */
    payment_type_id: { type: "string" },
    payment_method: { type: ["stripe_card", "bank_account", "pif"] as const, required: true },

    // Schedule inputs (civil dates YYYY-MM-DD in Pacific/Auckland; money integer cents).
    start_date: { type: "string", required: true },
    /** The anchor: the first full period starts here. */
    billing_date: { type: "string", required: true },
    amount: { type: "number", required: true },
    billing_frequency: { type: billingFrequencies, required: true },
    joining_fee: { type: "number", required: true, default: 0 },
    force_price_amount: { type: "number" },
    term_amount: { type: "number" },
    term_unit: { type: ["weeks", "months", "years"] as const },

    // Spec fields.
    current_period_start: { type: "string" },
    current_period_end: { type: "string" },
    paused_at: { type: "string" },
    pause_start_at: { type: "string" },
    pause_end_at: { type: "string" },
    pause_days_credit: { type: "number", required: true, default: 0 },
    pause_days_remaining: { type: "number", required: true, default: 0 },
    pauses: {
      type: "list",
      required: true,
      default: () => [],
      items: {
        type: "map",
        properties: {
          id: { type: "string", required: true },
          start_date: { type: "string", required: true },
          end_date: { type: "string", required: true },
          created_at: { type: "string" },
        },
      },
    },
    cancelled_at: { type: "string" },
    /** When the cancellation takes effect (end of the paid period, or now when immediate). */
    cancellation_effective_at: { type: "string" },
    cancellation_reasons: { type: "list", items: { type: "string" } },
    cancellation_comments: { type: "string" },
    undo_cancellation_until: { type: "string" },
    cancelled_during_cooling_off_period: { type: "boolean", required: true, default: false },
    grace_period_ends_at: { type: "string" },
    initial_state: { type: "string" },
    upcoming_state: { type: ["upcoming", "failed"] as const },
    transition_to_date: { type: "string" },
    transition_to_price_id: { type: "string" },
    /** The offering of `transition_to_price_id` (the rollups move the membership there on the day it takes effect). */
    transition_to_offering_id: { type: "string" },
    transition_to_amount: { type: "number" },
    /** The new price's offering name and label, shown once the change is in effect (states.ts `priceInEffect`). */
    transition_to_offering_name: { type: "string" },
    transition_to_price_label: { type: "string" },
    transition_takes_effect_at: { type: "string" },
    is_staging: { type: "boolean", required: true, default: false },
    cooling_period_ends_at: { type: "string" },
    is_term_membership: { type: "boolean", required: true, default: false },
    on_term_membership_price: { type: "boolean", required: true, default: false },
    term_ends_at: { type: "string" },
    latest_term_membership: { type: "string" },
    pif_ends_at: { type: "string" },
    private_price_link_id: { type: "string" },
    /**
     * The promo code the member joined with and its terms as they were then (docs/offers.md): the
     * schedule discounts by these, so editing or archiving the code never changes what they pay.
     */
    promo_code_id: { type: "string" },
    promo_code: { type: "string" },
    promo_kind: { type: ["percent", "fixed"] as const },
    /** Basis points (percent) or cents (fixed). */
    promo_value: { type: "number" },
    /** Full periods discounted; absent: forever. */
    promo_periods: { type: "number" },
    /**
     * The trial taken when joining (docs/offers.md "Trials"): the first day after it (civil date,
     * the first paid period's start) and what it costs (cents, 0 free). Absent: no trial.
     */
    trial_ends_on: { type: "string" },
    trial_amount: { type: "number" },
    /**
     * A visit pass (docs/offers.md "Visit passes"): the visits it carries (snapshotted from the
     * price), those used (one a day at most, +1 under a condition in the visit's transaction) and
     * the civil date of the last visit that used one. Absent: not a pass.
     */
    pass_visits: { type: "number" },
    pass_visits_used: { type: "number" },
    pass_last_visit_on: { type: "string" },
    payments_sum: { type: "number", required: true, default: 0 },
    balance_owing: { type: "number", required: true, default: 0 },
    periods_owing: { type: "number", required: true, default: 0 },

    // Billing state.
    first_payment_id: { type: "string" },
    latest_payment_id: { type: "string" },
    upcoming_payment_id: { type: "string" },
    /** The charge index of the newest scheduled payment created (-1 pro-rata, 0.. periods). */
    last_charge_index: { type: "number" },
    /** Exclusive end of the newest period scheduled. */
    last_period_end: { type: "string" },
    /** Dunning: when the current run of failures began, how many retries ran, the next one. */
    failed_at: { type: "string" },
    retries_done: { type: "number", required: true, default: 0 },
    next_retry_on: { type: "string" },
    /** The retry payment in flight, if any (one at a time). */
    retry_payment_id: { type: "string" },
    hard_declined: { type: "boolean", required: true, default: false },
    final_notice_sent_at: { type: "string" },
    /** Waiting for the member's new bank consent (gym account changed, price above the limit). */
    waiting_for_consent: { type: "boolean", required: true, default: false },
    /** The outbox event that last asked for it (payment/consent.ts): a redelivery asks nobody twice. */
    reconsent_event_id: { type: "string" },

    // Lifecycle (subscription/lifecycle.ts): credit from manual payments not yet used, the break fee
    // payment of a cancellation, price change history and the activity of lifecycle calls.
    credit_balance: { type: "number" },
    break_fee_payment_id: { type: "string" },
    price_changes: {
      type: "list",
      items: {
        type: "map",
        properties: {
          id: { type: "string", required: true },
          from_price_id: { type: "string", required: true },
          to_price_id: { type: "string", required: true },
          from_amount: { type: "number", required: true },
          to_amount: { type: "number", required: true },
          takes_effect_on: { type: "string", required: true },
          scheduled_at: { type: "string", required: true },
          scheduled_by: { type: "string", required: true },
          emailed_to: { type: "string" },
        },
      },
    },
    lifecycle_events: {
      type: "list",
      items: {
        type: "map",
        properties: {
          at: { type: "string", required: true },
          by: { type: "string", required: true },
          action: { type: "string", required: true },
          detail: { type: "string", required: true },
          /** The Idempotency-Key of the staff request that made it (subscription/lifecycle.ts `commitFactsOnce`). */
          key: { type: "string" },
        },
      },
    },

    /**
     * Sparse gsi4 (raw): `schedule#<shard>` / `<subscription_id>`, from its creation until its
     * cancellation is in effect, when the daily schedule check removes it (payment/schedule-check.ts,
     * which sweeps every subscription in it). store.ts `scheduleKeys`.
     */
    schedule_key: { type: "string", field: "gsi4pk" },
    schedule_sort: { type: "string", field: "gsi4sk" },

    // Copies for lists.
    member_name: { type: "string", required: true },
    member_email: { type: "string", required: true },
    gym_name: { type: "string", required: true },
    offering_name: { type: "string", required: true },
    price_label: { type: "string", required: true },

    version: { type: "number", required: true, default: 1 },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["subscription_id"] },
    },
    byMember: {
      index: "gsi1",
      pk: { field: "gsi1pk", composite: ["organisation_id", "user_id"] },
      sk: { field: "gsi1sk", composite: ["subscription_id"] },
    },
    byGym: {
      index: "gsi2",
      pk: { field: "gsi2pk", composite: ["organisation_id", "gym_id"] },
      sk: { field: "gsi2sk", composite: ["subscription_id"] },
    },
    byPrice: {
      index: "gsi3",
      pk: { field: "gsi3pk", composite: ["organisation_id", "price_id"] },
      sk: { field: "gsi3sk", composite: ["subscription_id"] },
    },
  },
});

/**
 * The member's one live membership in an organisation (docs/billing.md "One live membership per
 * member"): one item per member, naming the subscription that holds the claim. Making a
 * subscription writes it in the same transaction, conditional on what was read (absent, or held by
 * a subscription no longer live whose cancellation is as read), so of two confirms at once exactly
 * one commits; the other's transaction is cancelled and it answers 409 with the winner.
 * Subscriptions made before the claim existed have none: the member's live subscriptions are then
 * read by their index as before.
 */
export const membershipClaimEntity = new Entity({
  model: { entity: "membershipClaim", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    subscription_id: { type: "string", required: true },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["user_id"] },
    },
  },
});
