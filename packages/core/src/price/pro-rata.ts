/** The pro-rata quote of a price (spec 001 §7; docs/billing.md "First payment and pro-rata"). */
import type { Actor } from "../auth/actor";
import { currentOrganisation, policy } from "../auth/policy";
import { lastDayOf } from "../billing/calendar";
import {
  amountWithSurcharge,
  calculateProRata,
  formatCents,
  frequencyLabel,
  isRecurringFrequency,
  latestProRataBillingDate,
  periodStart,
  surcharge,
} from "../billing/index";
import { billingDateAfterTrial, trialOf } from "../billing/trial";
import { type ProRata, proRataRequest } from "../contract/price";
import { NotFoundError, ValidationError } from "../errors";
import { organisationContext } from "../offering/context";
import { nzDate } from "../text";
import { hasHadTrial } from "../trial/store";
import { parse } from "../validation";
import { resolveJoinLink } from "./links";
import { priceLabel } from "./present";
import { offeringOf, priceMessages, priceOf } from "./service";

/**
 * POST /api/prices/{id}/pro-rata: the first payment for a member starting on start_date with
 * billing from billing_date (docs/billing.md "First payment and pro-rata"), with the card
 * surcharge it would carry. Staff may quote any price of their organisation; anyone else (a
 * member on the join site) only an offered price, and a private one only with its link.
 */
export async function quoteProRata(actor: Actor, priceId: string, body: unknown): Promise<ProRata> {
  const organisationId = currentOrganisation(actor);
  const input = parse(proRataRequest, body);
  const price = await priceOf(organisationId, priceId);
  const offering = await offeringOf(organisationId, price.offering_id);
  if (!policy.useStaffArea(actor)) {
    if (price.archived_at || offering.archived_at) throw new NotFoundError("price");
    if (price.private) {
      const link = input.link ? await resolveJoinLink(input.link) : null;
      if (link?.kind !== "price" || link.organisation_id !== organisationId || link.price_id !== priceId) {
        throw new NotFoundError("price");
      }
    }
  }
  const frequency = price.billing_frequency;
  if (!isRecurringFrequency(frequency)) throw ValidationError.field("price", priceMessages.pif);
  // A trial (docs/offers.md "Trials"): shown first; the figures below are then the first paid
  // charge's, from the trial's end. A member who had the trial is quoted without it.
  const offered = trialOf(price, input.start_date);
  const trial =
    offered && !policy.useStaffArea(actor) && (await hasHadTrial(organisationId, priceId, actor.userId))
      ? null
      : offered;
  const paidStart = trial ? trial.trial_ends_on : input.start_date;
  const result = calculateProRata({
    amount: price.amount,
    billing_frequency: frequency,
    joining_fee: price.joining_fee ?? 0,
    start_date: paidStart,
    billing_date: trial ? billingDateAfterTrial(trial, input.billing_date) : input.billing_date,
  });
  if (!result.ok) {
    if (result.error.code === "billing_date_before_start") {
      throw ValidationError.field("billing_date", priceMessages.billingBeforeStart);
    }
    if (result.error.code === "billing_date_too_far") {
      const latest = latestProRataBillingDate(paidStart, frequency);
      throw ValidationError.field(
        "billing_date",
        `The billing date must be on or before ${nzDate(latest)}: less than one ${frequencyLabel[frequency].toLowerCase()} period after the start date`,
      );
    }
    throw ValidationError.field("start_date", result.error.message);
  }
  const context = await organisationContext(organisationId);
  const b = result.value;
  const firstSurcharge = surcharge(b.first_payment_total, context.surcharge);
  return {
    price_id: price.price_id,
    price_label: priceLabel(price),
    offering: { id: offering.offering_id, name: offering.name },
    billing_frequency: frequency,
    frequency_label: frequencyLabel[frequency],
    start_date: input.start_date,
    billing_date: input.billing_date,
    ...b,
    // The payment after the first: the billing date when the first was a pro-rata share, else
    // one period after it (what a member reads as "then $X every week from …").
    second_payment_date: b.is_pro_rata
      ? b.first_full_payment_date
      : periodStart(b.first_full_payment_date, 1, frequency),
    latest_billing_date: latestProRataBillingDate(paidStart, frequency),
    trial: trial
      ? {
          days: price.trial_days ?? 0,
          amount: trial.trial_amount,
          formatted_amount: formatCents(trial.trial_amount),
          card_surcharge: surcharge(trial.trial_amount, context.surcharge),
          ends_on: trial.trial_ends_on,
          last_day: lastDayOf(trial.trial_ends_on),
        }
      : null,
    formatted_pro_rata_amount: formatCents(b.pro_rata_amount),
    formatted_joining_fee: formatCents(b.joining_fee),
    formatted_first_payment_total: formatCents(b.first_payment_total),
    formatted_recurring_amount: formatCents(b.recurring_amount),
    /** What a card payment adds (bank payments carry none). */
    card_surcharge: firstSurcharge,
    formatted_card_surcharge: formatCents(firstSurcharge),
    first_payment_total_with_card_surcharge: amountWithSurcharge(b.first_payment_total, context.surcharge),
    formatted_first_payment_total_with_card_surcharge: formatCents(
      amountWithSurcharge(b.first_payment_total, context.surcharge),
    ),
  };
}
