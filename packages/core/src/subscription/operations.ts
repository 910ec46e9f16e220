/**
 * Staff lifecycle calls (spec 001 §7 Members; docs/billing.md "Pauses", "Cancellation, cooling-off,
 * terms", "Price changes", "Start early", "Manual payments"). Each checks reach and role, asks the
 * pure rule (billing/lifecycle.ts) and commits the new facts with lifecycle.ts's `commitFacts`.
 */
import type { Actor } from "../auth/actor";
import { adminGymIds, staffGymIds, staffOrganisation } from "../auth/scope";
import { addDays, type CivilDate, daysBetween } from "../billing/calendar";
import { debt } from "../billing/debt";
import { frequencyLabel } from "../billing/frequency";
import {
  allocateManualPayment,
  cancellationTerms,
  checkPause,
  checkPriceChange,
  checkRemovePause,
  DEFAULT_PRICE_CHANGE_NOTICE_DAYS,
} from "../billing/lifecycle";
import { formatCents } from "../billing/money";
import { chargeAfter, chargeCovering } from "../billing/schedule";
import { deriveSubscriptionState } from "../billing/subscription-state";
import { termEnd } from "../billing/term";
import { businessNow, businessToday } from "../clock";
import {
  cancelInput,
  manualPaymentInput,
  type PriceChangeCandidate,
  pauseInput,
  priceChangeInput,
} from "../contract/lifecycle";
import { emailDate, firstName } from "../email/format";
import { compose } from "../email/message";
import { type Email, sendEmail } from "../email/port";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { newId } from "../ids";
import { findOffering } from "../offering/store";
import { breakFeeFor } from "../organisation/settings";
import { gymOf, organisationOf, settingsOf } from "../payment/context";
import { debtChargeInFlight, ledgerDebt, ledgerEntry } from "../payment/debt";
import { newPayment } from "../payment/new-payment";
import { type PaymentRecord, subscriptionPayments } from "../payment/store";
import { priceLabel } from "../price/present";
import { findPrice } from "../price/store";
import { receiptForPaidPayment } from "../receipt/service";
import { nzDate, titleCase } from "../text";
import { parse } from "../validation";

export { cancelInput, manualPaymentInput, pauseInput, priceChangeInput };

import {
  civilOf,
  commitFacts,
  instantOf,
  ownSubscription,
  reachableSubscription,
  type SubscriptionFinder,
  staffChanges,
  staffReads,
} from "./lifecycle";
import { scheduleOf } from "./schedule";
import { factsOf } from "./states";
import { isLive, memberSubscriptions, priceSubscriptionsPage, type SubscriptionRecord } from "./store";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function refused(r: { ok: false; error: { field: string; message: string } }): never {
  throw ValidationError.field(r.error.field, r.error.message);
}

// ---- Pause ------------------------------------------------------------------------------------------

/** `POST /api/subscriptions/{id}/pause`: pause_end_at is the first day the membership runs again. */
export async function pauseSubscription(
  actor: Actor,
  subscriptionId: string,
  body: unknown,
  find: SubscriptionFinder = staffChanges,
) {
  const values = parse(pauseInput, body);
  const sub = await find(actor, subscriptionId);
  const [today, now] = [await businessToday(), await businessNow()];
  const start = civilOf(values.pause_start_at) as CivilDate;
  const end = civilOf(values.pause_end_at) as CivilDate;
  const r = checkPause({
    today,
    start,
    end,
    pause_days_remaining: sub.pause_days_remaining,
    pauses: (sub.pauses ?? []).map((p) => ({ start: p.start_date, end: p.end_date })),
    cancellation_effective: sub.cancelled_at ? (civilOf(sub.cancellation_effective_at) ?? today) : null,
  });
  if (!r.ok) refused(r);
  const pifEnds = civilOf(sub.pif_ends_at);
  return commitFacts(actor, sub, {
    set: {
      paused_at: now.toISOString(),
      pause_start_at: instantOf(start),
      pause_end_at: instantOf(end),
      pause_days_remaining: r.value.remaining_after,
      pauses: [
        ...(sub.pauses ?? []),
        { id: newId(), start_date: start, end_date: end, created_at: now.toISOString() },
      ],
      // A PIF membership has no periods to extend: its end moves by the paused days.
      ...(sub.billing_frequency === "one_off" && pifEnds
        ? { pif_ends_at: instantOf(addDays(pifEnds, r.value.days)) }
        : {}),
    },
    event: {
      action: "pause",
      detail: `Paused from ${nzDate(start)} until ${nzDate(end)} (${plural(r.value.days, "day")}; ${plural(
        r.value.remaining_after,
        "pause day",
      )} left)`,
    },
  });
}

/**
 * `DELETE /api/subscriptions/{id}/pause` (staff) and `DELETE /api/me/subscriptions/{id}/pause` (the
 * member): removes a pause that has not started; its days come back.
 */
export async function removePause(
  actor: Actor,
  subscriptionId: string,
  find: SubscriptionFinder = staffChanges,
) {
  const sub = await find(actor, subscriptionId);
  const today = await businessToday();
  const pending = (sub.pauses ?? []).filter((p) => p.end_date > today);
  const pause = pending.at(-1);
  if (!pause) throw new ConflictError("This membership has no pause to remove.", "no_pause");
  const r = checkRemovePause(today, { start: pause.start_date, end: pause.end_date });
  if (!r.ok) refused(r);
  const pifEnds = civilOf(sub.pif_ends_at);
  return commitFacts(actor, sub, {
    set: {
      pauses: (sub.pauses ?? []).filter((p) => p.id !== pause.id),
      pause_days_remaining: sub.pause_days_remaining + r.value.days_returned,
      ...(sub.billing_frequency === "one_off" && pifEnds
        ? { pif_ends_at: instantOf(addDays(pifEnds, -r.value.days_returned)) }
        : {}),
    },
    remove: ["paused_at", "pause_start_at", "pause_end_at"],
    event: {
      action: "pause_removed",
      detail: `Removed the pause from ${nzDate(pause.start_date)} until ${nzDate(pause.end_date)} (${plural(
        r.value.days_returned,
        "day",
      )} back)`,
    },
  });
}

// ---- Cancel -----------------------------------------------------------------------------------------

/**
 * Cancelling removes every booked pause that would start on or after the day the cancellation
 * takes effect (and after today): the membership has ended by then, so those days are given back
 * to `pause_days_remaining` (and a PIF's end moves back). A pause in progress, or one inside the
 * last paid period (which it extends, so the member still has it), stays. Removing them moves no
 * period already charged, so undoing the cancellation plans from the same boundaries.
 */
function withoutBookedPauses(sub: SubscriptionRecord, today: CivilDate, effective: CivilDate) {
  const isBooked = (p: { start_date: string }) => p.start_date > today && p.start_date >= effective;
  const booked = (sub.pauses ?? []).filter(isBooked);
  const days = booked.reduce((sum, p) => sum + daysBetween(p.start_date, p.end_date), 0);
  const kept = (sub.pauses ?? []).filter((p) => !isBooked(p));
  const current = civilOf(sub.pause_start_at);
  const pifEnds = civilOf(sub.pif_ends_at);
  return {
    booked,
    sub: { ...sub, pauses: kept } as SubscriptionRecord,
    set: booked.length
      ? {
          pauses: kept,
          pause_days_remaining: sub.pause_days_remaining + days,
          ...(sub.billing_frequency === "one_off" && pifEnds
            ? { pif_ends_at: instantOf(addDays(pifEnds, -days)) }
            : {}),
        }
      : {},
    remove:
      booked.length && current && current > today
        ? (["paused_at", "pause_start_at", "pause_end_at"] as const)
        : ([] as const),
    detail: booked.length
      ? `; booked ${booked.length === 1 ? "pause" : "pauses"} removed (${plural(days, "pause day")} back)`
      : "",
  };
}

async function termsOf(sub: SubscriptionRecord, immediate: boolean) {
  const [today, settings, gym] = await Promise.all([
    businessToday(),
    settingsOf(sub.organisation_id),
    gymOf(sub.organisation_id, sub.gym_id),
  ]);
  const basisPoints = breakFeeFor(settings, gym);
  const terms = cancellationTerms({
    today,
    immediate,
    schedule: scheduleOf(sub),
    term_ends_at: sub.is_term_membership ? civilOf(sub.term_ends_at) : null,
    cooling_period_ends_at: civilOf(sub.cooling_period_ends_at),
    break_fee_basis_points: basisPoints,
  });
  return { today, basisPoints, terms };
}

/** What cancelling would mean (the confirm dialog shows it before staff or the member confirm). */
export async function cancellationPreview(
  actor: Actor,
  subscriptionId: string,
  immediate: boolean,
  find: SubscriptionFinder = staffReads,
) {
  const found = await find(actor, subscriptionId);
  const first = await termsOf(found, immediate);
  const sub = withoutBookedPauses(found, first.today, first.terms.effective).sub;
  const { basisPoints, terms } = await termsOf(sub, immediate);
  return {
    immediate,
    takes_effect_on: terms.effective,
    undo_cancellation_until: instantOf(terms.undo_until),
    within_term: terms.within_term,
    in_cooling_off: terms.in_cooling_off,
    remaining_term_value: terms.remaining_term_value,
    break_fee_basis_points: basisPoints,
    break_fee: terms.break_fee,
    formatted_break_fee: formatCents(terms.break_fee),
  };
}

/** `POST /api/subscriptions/{id}/cancel`. */
export async function cancelSubscription(
  actor: Actor,
  subscriptionId: string,
  body: unknown,
  find: SubscriptionFinder = staffChanges,
) {
  const values = parse(cancelInput, body ?? {});
  const sub = await find(actor, subscriptionId);
  if (sub.cancelled_at) throw new ConflictError("This membership is already cancelled.", "already_cancelled");
  const now = await businessNow();
  const first = await termsOf(sub, values.immediate);
  const unpaused = withoutBookedPauses(sub, first.today, first.terms.effective);
  const { today, terms } = await termsOf(unpaused.sub, values.immediate);
  const extra: PaymentRecord[] = [];
  let breakFeePaymentId: string | undefined;
  if (terms.break_fee > 0) {
    const [settings, gym] = await Promise.all([
      settingsOf(sub.organisation_id),
      gymOf(sub.organisation_id, sub.gym_id),
    ]);
    const fee = newPayment("break_fee", {
      sub,
      type: sub.payment_method === "bank_account" ? "bank_account" : "stripe_card",
      gym,
      settings,
      amount: terms.break_fee,
      today,
      remaining_term_value: terms.remaining_term_value,
    });
    breakFeePaymentId = fee.payment_id;
    extra.push(fee);
  }
  return commitFacts(
    actor,
    sub,
    {
      set: {
        cancelled_at: now.toISOString(),
        cancellation_effective_at: instantOf(terms.effective),
        undo_cancellation_until: instantOf(terms.undo_until),
        cancellation_reasons: values.cancellation_reasons,
        ...(values.cancellation_comments ? { cancellation_comments: values.cancellation_comments } : {}),
        cancelled_during_cooling_off_period: terms.in_cooling_off,
        ...(breakFeePaymentId ? { break_fee_payment_id: breakFeePaymentId } : {}),
        ...unpaused.set,
      },
      remove: [...unpaused.remove],
      event: {
        action: "cancel",
        detail: `Cancelled${values.immediate ? " immediately" : ""}, taking effect ${nzDate(terms.effective)}${
          terms.in_cooling_off ? " (inside the cooling-off period: no break fee)" : ""
        }${terms.break_fee > 0 ? `; break fee ${formatCents(terms.break_fee)}` : ""}${unpaused.detail}`,
      },
    },
    extra,
  );
}

// ---- Member self-service (join site) -----------------------------------------------------------------

/**
 * The member's own pause and cancellation: the same rules, credit and consequences as at the desk,
 * on the caller's own subscription only (anyone else's id: 404). A member cancels at the end of
 * the paid period (never immediately); inside a term after cooling-off the break fee is charged.
 */
export const pauseOwnSubscription = (actor: Actor, subscriptionId: string, body: unknown) =>
  pauseSubscription(actor, subscriptionId, body, ownSubscription);

export const removeOwnPause = (actor: Actor, subscriptionId: string) =>
  removePause(actor, subscriptionId, ownSubscription);

export const ownCancellationPreview = (actor: Actor, subscriptionId: string) =>
  cancellationPreview(actor, subscriptionId, false, ownSubscription);

export const cancelOwnSubscription = (actor: Actor, subscriptionId: string, body: unknown) =>
  cancelSubscription(
    actor,
    subscriptionId,
    { ...((body as object | undefined) ?? {}), immediate: false },
    ownSubscription,
  );

/** `POST /api/subscriptions/{id}/undo-cancellation`: before it takes effect; an uncharged break fee goes too. */
export async function undoCancellation(actor: Actor, subscriptionId: string) {
  const sub = await reachableSubscription(actor, subscriptionId, "change");
  const now = await businessNow();
  const state = deriveSubscriptionState(factsOf(sub, now));
  if (!state.cancelled) throw new ConflictError("This membership is not cancelled.", "not_cancelled");
  if (!state.undo_cancellation_possible)
    throw new ConflictError(
      "This cancellation has taken effect and can no longer be undone.",
      "undo_not_possible",
    );
  if (sub.break_fee_payment_id) {
    const { cancelUpcomingPayment } = await import("./break-fee");
    await cancelUpcomingPayment(sub.organisation_id, sub.break_fee_payment_id);
  }
  return commitFacts(actor, sub, {
    set: { cancelled_during_cooling_off_period: false },
    remove: [
      "cancelled_at",
      "cancellation_effective_at",
      "undo_cancellation_until",
      "cancellation_reasons",
      "cancellation_comments",
      "break_fee_payment_id",
    ],
    event: { action: "cancel_undone", detail: "Cancellation undone" },
  });
}

// ---- Price change -----------------------------------------------------------------------------------

interface PlannedChange {
  sub: SubscriptionRecord;
  effective: CivilDate;
  email: Email;
  to_amount: number;
  to_offering_name: string;
}

export function priceChangeEmail(input: {
  member_name: string;
  member_email: string;
  gym_name: string;
  gym_ref?: { organisation_id: string; gym_id: string };
  /** The offering the member is on now, and the one the new price belongs to. */
  offering_name: string;
  to_offering_name: string;
  billing_frequency: string;
  from_amount: number;
  to_amount: number;
  effective: CivilDate;
  reply_to: string | null;
}): Email {
  const first = firstName(input.member_name);
  const per = frequencyLabel[input.billing_frequency as keyof typeof frequencyLabel].toLowerCase();
  const direction = input.to_amount < input.from_amount ? "going down" : "changing";
  const from = emailDate(input.effective);
  return compose({
    to: input.member_email,
    reply_to: input.reply_to,
    subject: `Your ${input.gym_name} membership price is ${direction}`,
    brand: {
      name: input.gym_name,
      reply_to: input.reply_to,
      ...(input.gym_ref ? { ref: input.gym_ref } : {}),
    },
    blocks: [
      { p: [`Kia ora ${first},`] },
      {
        p: [
          input.to_offering_name === input.offering_name
            ? `From ${from}, your ${input.offering_name} membership at ${input.gym_name} will be ${formatCents(
                input.to_amount,
              )} (${per}) instead of ${formatCents(input.from_amount)}.`
            : `From ${from}, your membership at ${input.gym_name} moves from ${input.offering_name} to ${
                input.to_offering_name
              }, at ${formatCents(input.to_amount)} (${per}) instead of ${formatCents(input.from_amount)}.`,
        ],
      },
      {
        p: [
          "Your first payment at the new price is the one due on or after that date. You do not need to do anything.",
        ],
      },
      {
        p: [
          input.reply_to
            ? `Questions? Reply to this email and it will reach ${input.gym_name} (${input.reply_to}).`
            : `Questions? Talk to the team at ${input.gym_name}.`,
        ],
      },
    ],
  });
}

async function planPriceChange(actor: Actor, body: unknown): Promise<PlannedChange[]> {
  const values = parse(priceChangeInput, body);
  const organisationId = staffOrganisation(actor);
  const [today, org, price] = await Promise.all([
    businessToday(),
    organisationOf(organisationId),
    findPrice(organisationId, values.price_id),
  ]);
  const toOffering = price ? await findOffering(organisationId, price.offering_id) : null;
  // Reach every subscription first (404 outside it), then judge the price.
  const subs: SubscriptionRecord[] = [];
  for (const id of [...new Set(values.subscription_ids)])
    subs.push(await reachableSubscription(actor, id, "change"));
  if (!price || price.archived_at) throw ValidationError.field("price_id", "Choose a current price.");
  const noticeDays =
    (org as { price_change_notice_days?: number }).price_change_notice_days ??
    DEFAULT_PRICE_CHANGE_NOTICE_DAYS;
  const planned: PlannedChange[] = [];
  const problems: string[] = [];
  for (const sub of subs) {
    const who = sub.member_name;
    if (sub.billing_frequency === "one_off" || price.billing_frequency !== sub.billing_frequency) {
      problems.push(
        `${who}: the new price must be billed ${frequencyLabel[sub.billing_frequency].toLowerCase()} like the current one.`,
      );
      continue;
    }
    if (sub.cancelled_at) {
      problems.push(`${who}: the membership is cancelled.`);
      continue;
    }
    const schedule = scheduleOf(sub);
    const current = sub.force_price_amount ?? sub.amount;
    // No date: each member's first period end the rule allows (after today; for a rise, the
    // notice's first day or later), so "leave empty" works for every member it is applied to.
    const earliest = price.amount < current ? addDays(today, 1) : addDays(today, Math.max(1, noticeDays));
    const effective =
      civilOf(values.transition_takes_effect_at) ??
      chargeCovering(schedule, addDays(earliest, -1))?.period_end ??
      (chargeAfter(schedule, null)?.due as CivilDate);
    const r = checkPriceChange({
      today,
      effective,
      current_amount: current,
      new_amount: price.amount,
      notice_days: noticeDays,
    });
    if (!r.ok) {
      problems.push(values.subscription_ids.length > 1 ? `${who}: ${r.error.message}` : r.error.message);
      continue;
    }
    const gym = await gymOf(organisationId, sub.gym_id);
    planned.push({
      sub,
      effective,
      to_amount: price.amount,
      to_offering_name: toOffering?.name ?? sub.offering_name,
      email: priceChangeEmail({
        member_name: sub.member_name,
        member_email: sub.member_email,
        gym_name: sub.gym_name,
        gym_ref: { organisation_id: organisationId, gym_id: sub.gym_id },
        offering_name: sub.offering_name,
        to_offering_name: toOffering?.name ?? sub.offering_name,
        billing_frequency: sub.billing_frequency,
        from_amount: current,
        to_amount: price.amount,
        effective,
        reply_to:
          (gym as { price_change_notification_reply_to?: string | null })
            .price_change_notification_reply_to ?? null,
      }),
    });
  }
  if (problems.length)
    throw ValidationError.field(
      values.transition_takes_effect_at ? "transition_takes_effect_at" : "subscription_ids",
      problems.join(" "),
    );
  return planned;
}

/** `POST /api/subscriptions/change-price-email-preview`: the exact email each member will get. */
export async function priceChangePreview(actor: Actor, body: unknown) {
  const planned = await planPriceChange(actor, body);
  return planned.map((p) => ({
    subscription_id: p.sub.subscription_id,
    member_name: titleCase(p.sub.member_name),
    takes_effect_on: p.effective,
    from_amount: p.sub.force_price_amount ?? p.sub.amount,
    to_amount: p.to_amount,
    to: p.email.to,
    reply_to: p.email.reply_to ?? null,
    subject: p.email.subject,
    text: p.email.text,
  }));
}

/** `POST /api/subscriptions/schedule-price-change`: schedules it and emails each member. */
export async function schedulePriceChange(actor: Actor, body: unknown) {
  const values = parse(priceChangeInput, body);
  const planned = await planPriceChange(actor, body);
  const now = await businessNow();
  const price = await findPrice(staffOrganisation(actor), values.price_id);
  if (!price) throw new NotFoundError("price");
  const out = [];
  for (const p of planned) {
    const from = p.sub.force_price_amount ?? p.sub.amount;
    const saved = await commitFacts(actor, p.sub, {
      set: {
        transition_to_price_id: price.price_id,
        transition_to_offering_id: price.offering_id,
        transition_to_amount: price.amount,
        transition_to_offering_name: p.to_offering_name,
        transition_to_price_label: priceLabel(price),
        transition_to_date: p.effective,
        transition_takes_effect_at: instantOf(p.effective),
        price_changes: [
          ...(p.sub.price_changes ?? []),
          {
            id: newId(),
            from_price_id: p.sub.price_id,
            to_price_id: price.price_id,
            from_amount: from,
            to_amount: price.amount,
            takes_effect_on: p.effective,
            scheduled_at: now.toISOString(),
            scheduled_by: actor.userId,
            emailed_to: p.email.to,
          },
        ],
      },
      event: {
        action: "price_change_scheduled",
        detail: `Price change to ${priceLabel(price)} (${formatCents(from)} → ${formatCents(price.amount)}) from ${nzDate(p.effective)}`,
      },
    });
    await sendEmail(p.email);
    out.push(saved);
  }
  return out;
}

/** `GET /api/users/{id}/price-change-history`: newest first, at the staff member's gyms. */
export async function priceChangeHistory(actor: Actor, userId: string) {
  const organisationId = staffOrganisation(actor);
  const gyms = staffGymIds(actor);
  const subs = (await memberSubscriptions(organisationId, userId)).filter((s) => gyms.includes(s.gym_id));
  // No membership at the staff member's gyms (another organisation's member too): not found.
  if (!subs.length) throw new NotFoundError("member");
  return subs
    .flatMap((s) =>
      (s.price_changes ?? []).map((c) => ({
        ...c,
        subscription_id: s.subscription_id,
        gym_name: s.gym_name,
        formatted_from_amount: formatCents(c.from_amount),
        formatted_to_amount: formatCents(c.to_amount),
      })),
    )
    .sort((a, b) => (a.scheduled_at < b.scheduled_at ? 1 : -1));
}

// ---- Start early ------------------------------------------------------------------------------------

async function startEarlyPlan(sub: SubscriptionRecord) {
  const now = await businessNow();
  const today = await businessToday();
  const state = deriveSubscriptionState(factsOf(sub, now));
  const allowed = state.start_now_offered && sub.start_date > today;
  // Keep a billing day after the start (pro-rata up to it); a billing day equal to the start moves with it.
  const billing = sub.billing_date === sub.start_date ? today : sub.billing_date;
  const spanOk = sub.billing_frequency === "one_off" || daysBetween(today, billing) >= 0;
  const schedule = { ...scheduleOf(sub), start_date: today, billing_date: spanOk ? billing : today };
  let first = null;
  try {
    first = chargeAfter(schedule, null);
  } catch {
    first = chargeAfter({ ...schedule, billing_date: today }, null);
    schedule.billing_date = today;
  }
  return { allowed, today, billing_date: schedule.billing_date, first };
}

/** `GET /api/subscriptions/{id}/start-early-data`: what starting today would charge. */
export async function startEarlyData(actor: Actor, subscriptionId: string) {
  const sub = await reachableSubscription(actor, subscriptionId, "read");
  const plan = await startEarlyPlan(sub);
  return {
    allowed: plan.allowed,
    start_date: plan.today,
    billing_date: plan.billing_date,
    current_start_date: sub.start_date,
    first_payment: plan.first
      ? {
          due_on: plan.first.due,
          period_start: plan.first.period_start,
          period_end: plan.first.period_end,
          amount: plan.first.amount,
          joining_fee: plan.first.joining_fee,
          is_pro_rata: plan.first.is_pro_rata,
          formatted_amount: formatCents(plan.first.amount),
        }
      : null,
  };
}

/** `POST /api/subscriptions/{id}/start-now`: only for non-cancelled, upcoming, non-PIF memberships. */
export async function startNow(actor: Actor, subscriptionId: string) {
  const sub = await reachableSubscription(actor, subscriptionId, "change");
  const plan = await startEarlyPlan(sub);
  if (!plan.allowed)
    throw new ConflictError(
      "Only an upcoming membership that is not cancelled or paid in full can start early.",
      "start_now_not_allowed",
    );
  // A term runs from the start: starting early moves its end and the cooling-off with it.
  const settings = await settingsOf(sub.organisation_id);
  const term =
    sub.is_term_membership && sub.term_amount != null && sub.term_unit != null
      ? {
          term_ends_at: instantOf(termEnd(plan.today, sub.term_amount, sub.term_unit)),
          latest_term_membership: instantOf(plan.today),
          cooling_period_ends_at: instantOf(addDays(plan.today, settings.cooling_off_days)),
        }
      : {};
  return commitFacts(actor, sub, {
    set: { start_date: plan.today, billing_date: plan.billing_date, initial_state: "active", ...term },
    remove: ["upcoming_state"],
    event: {
      action: "start_now",
      detail: `Started early on ${nzDate(plan.today)} (was ${nzDate(sub.start_date)})`,
    },
  });
}

// ---- Manual payment ---------------------------------------------------------------------------------

/**
 * `POST /api/subscriptions/{id}/manual-payment`: a payment taken at the desk. It clears the owing
 * balance first (and with it grace and retries when all is paid); the rest is credit ahead
 * (`credit_balance`, spent as `credit_used` on later payments).
 */
export async function recordManualPayment(actor: Actor, subscriptionId: string, body: unknown) {
  const values = parse(manualPaymentInput, body);
  const sub = await reachableSubscription(actor, subscriptionId, "change");
  const now = await businessNow();
  const today = await businessToday();
  // The debt as the ledger says it is now (payment/debt.ts), paid off oldest first.
  const payments = await subscriptionPayments(sub.organisation_id, sub.user_id, sub.subscription_id);
  // Not while a retry of the balance is at the provider: it may still succeed, and the debt would
  // be collected twice. The write below is conditional on the version read, and starting a retry
  // changes the version, so a retry that starts meanwhile refuses this payment too (409).
  const inFlight = debtChargeInFlight(payments);
  if (inFlight)
    throw new ConflictError(
      `A retry of ${formatCents(inFlight.amount)} for the balance owing is being charged to the member's ${
        inFlight.type === "bank_account" ? "bank account" : "card"
      } right now. Record a payment once it has settled: if it succeeds, nothing is owing.`,
      "debt_charge_in_flight",
    );
  const split = allocateManualPayment(values.amount, ledgerDebt(payments).balance_owing);
  const at = now.toISOString();
  const debtAfter = debt([
    ...payments.map(ledgerEntry),
    { status: "sent", amount: values.amount, is_retry: false, settles_debt: true, created_at: at },
  ]);
  const payment = newPayment("manual", {
    sub,
    amount: values.amount,
    today,
    at,
    payment_method: values.payment_method,
    processed_by: actor.userId,
    debt_paid: split.debt_paid,
    credit: split.credit,
    debt_after: debtAfter,
  });
  const paymentId = payment.payment_id;
  const cleared = split.debt_paid > 0 && split.balance_after === 0;
  const saved = await commitFacts(
    actor,
    sub,
    {
      set: {
        balance_owing: debtAfter.balance_owing,
        periods_owing: debtAfter.periods_owing,
        payments_sum: (sub.payments_sum ?? 0) + values.amount,
        latest_payment_id: paymentId,
        credit_balance: (sub.credit_balance ?? 0) + split.credit,
        ...(cleared ? { retries_done: 0 } : {}),
      },
      remove: cleared ? ["grace_period_ends_at", "failed_at", "next_retry_on"] : [],
      event: {
        action: "manual_payment",
        detail: `${formatCents(values.amount)} by ${values.payment_method.replace("_", " ")}: ${formatCents(
          split.debt_paid,
        )} to the balance owing, ${formatCents(split.credit)} credit ahead`,
      },
    },
    [payment],
  );
  await receiptForPaidPayment(sub.organisation_id, paymentId);
  return saved;
}

export { cancelInput as cancelSubscriptionInput };

// ---- Price-change candidates ------------------------------------------------------------------------

/** More than this many memberships on one price are listed as the first this many (a change takes 200 at once). */
export const PRICE_CHANGE_CANDIDATES_LIMIT = 1_000;

/**
 * `GET /api/prices/{id}/subscriptions`: the live memberships on a price at the gyms this staff member
 * administers, for the bulk price-change page to pick from (one Query by price, paged until done).
 */
export async function priceChangeCandidates(actor: Actor, priceId: string, gymId?: string) {
  const organisationId = staffOrganisation(actor);
  const price = await findPrice(organisationId, priceId);
  if (!price) throw new NotFoundError("price");
  const gyms = adminGymIds(actor).filter((g) => !gymId || g === gymId);
  const now = await businessNow();
  const out: PriceChangeCandidate[] = [];
  let cursor: string | null = null;
  do {
    const page = await priceSubscriptionsPage(organisationId, priceId, cursor, 200);
    for (const sub of page.items) {
      if (!gyms.includes(sub.gym_id) || !isLive(sub, now)) continue;
      const state = deriveSubscriptionState(factsOf(sub, now));
      const amount = sub.force_price_amount ?? sub.amount;
      out.push({
        id: sub.subscription_id,
        member: { id: sub.user_id, name: titleCase(sub.member_name), email: sub.member_email },
        gym: { id: sub.gym_id, name: sub.gym_name },
        amount,
        formatted_amount: formatCents(amount),
        card_colour: state.card_colour,
        has_scheduled_price_change: state.has_scheduled_price_change,
      });
    }
    cursor = page.cursor;
  } while (cursor && out.length < PRICE_CHANGE_CANDIDATES_LIMIT);
  return out
    .slice(0, PRICE_CHANGE_CANDIDATES_LIMIT)
    .sort((a, b) => a.member.name.localeCompare(b.member.name));
}
