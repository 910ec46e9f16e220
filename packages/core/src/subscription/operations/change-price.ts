/**
 * Price changes (docs/billing.md "Price changes"): the preview of each member's email, scheduling
 * the change (and emailing it: price-change-email.ts), and a member's history of them. The rule
 * is billing/lifecycle.ts (`checkPriceChange`); the facts are committed with lifecycle.ts's
 * `commitFacts`. The memberships to pick from: price-change-candidates.ts.
 */
import type { Actor } from "../../auth/actor";
import { staffGymIds, staffOrganisation } from "../../auth/scope";
import { addDays, type CivilDate, startOfAucklandDay } from "../../billing/calendar";
import { frequencyLabel } from "../../billing/frequency";
import { checkPriceChange, DEFAULT_PRICE_CHANGE_NOTICE_DAYS } from "../../billing/lifecycle";
import { formatCents } from "../../billing/money";
import { chargeAfter, chargeCovering } from "../../billing/schedule";
import { formatTerm, type TermUnit } from "../../billing/term";
import { businessNow, businessToday } from "../../clock";
import { priceChangeInput } from "../../contract/lifecycle";
import { type Email, sendEmail } from "../../email/port";
import { NotFoundError, ValidationError } from "../../errors";
import { newId } from "../../ids";
import { findOffering } from "../../offering/store";
import { gymOf, organisationOf } from "../../payment/context";
import { priceLabel } from "../../price/present";
import { findPrice } from "../../price/store";
import { nzDate, titleCase } from "../../text";
import { memberRecipient } from "../../user/recipient";
import { parse } from "../../validation";
import { civilOf, commitFacts, instantOf, reachableSubscription } from "../lifecycle";
import { priceInEffect, scheduleOf } from "../schedule";
import { memberSubscriptions, type SubscriptionRecord } from "../store";
import { priceChangeEmail } from "./price-change-email";

const termOf = (amount?: number | null, unit?: TermUnit | null) =>
  amount && unit ? formatTerm(amount, unit) : null;

interface PlannedChange {
  sub: SubscriptionRecord;
  effective: CivilDate;
  email: Email;
  to_amount: number;
  to_offering_name: string;
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
    const who = titleCase(sub.member_name);
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
    // A term and its break fee bind the member: only they can agree to one (issue 34 item 7). A
    // price change moves the amount, so a price whose term is not the membership's is refused.
    const fromTerm = sub.is_term_membership ? termOf(sub.term_amount, sub.term_unit) : null;
    const toTerm = termOf(price.term_amount, price.term_unit);
    if (toTerm !== fromTerm) {
      const why = `${priceLabel(price)} ${toTerm ? `carries a ${toTerm} with a break fee` : "has no term"} and the membership ${
        fromTerm ? `is on a ${fromTerm}` : "has none"
      }: a term needs the member's agreement, so a price change cannot add, change or remove one. Choose a price with the same term, or let the member join the term price themselves.`;
      problems.push(values.subscription_ids.length > 1 ? `${who}: ${why}` : why);
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
    const [gym, to] = await Promise.all([
      gymOf(organisationId, sub.gym_id),
      memberRecipient(sub.user_id, sub),
    ]);
    planned.push({
      sub,
      effective,
      to_amount: price.amount,
      to_offering_name: toOffering?.name ?? sub.offering_name,
      email: priceChangeEmail({
        member_name: to.name,
        member_email: to.email,
        gym_name: sub.gym_name,
        gym_ref: { organisation_id: organisationId, gym_id: sub.gym_id },
        offering_name: sub.offering_name,
        to_offering_name: toOffering?.name ?? sub.offering_name,
        billing_frequency: sub.billing_frequency,
        from_amount: current,
        to_amount: price.amount,
        from_label: priceInEffect(sub, startOfAucklandDay(today)).price_label ?? null,
        to_label: priceLabel(price),
        term: fromTerm,
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
