/**
 * A price as the API shows it: the stored fields and the spec's computed fields (001 §3). Pure:
 * the caller passes the offering, the surcharge settings and today's Auckland date.
 */
import {
  amountWithSurcharge,
  type BillingFrequency,
  type CivilDate,
  formatCents,
  formatTerm,
  frequencyLabel,
  isTermMembership,
  LEGACY_PIF_MONTHS,
  membershipTypeLabel,
  type SurchargeSettings,
  surcharge,
  type TermUnit,
  totalValue,
} from "../billing/index";
import { config } from "../config";
import { type Price, priceKindOf } from "../contract/price";

/** The stored price fields a view is made from. */
export interface PriceRecord {
  organisation_id: string;
  price_id: string;
  offering_id: string;
  amount: number;
  billing_frequency: BillingFrequency;
  private: boolean;
  joining_fee?: number | null;
  term_amount?: number | null;
  term_unit?: TermUnit | null;
  trial_days?: number | null;
  trial_amount?: number | null;
  visits?: number | null;
  valid_days?: number | null;
  grouping_unique_identifier: string;
  subscriptions_count: number;
  private_links: { id: string; token: string; age_bypass: boolean; created_at: string }[];
  archived_at?: string | null;
  created_at: string;
  updated_at: string;
}

export interface PriceContext {
  offering: { offering_id: string; name: string; archived_at?: string | null };
  surcharge: SurchargeSettings;
  /** Today's Auckland date: the start the total value of a term is quoted from. */
  today: CivilDate;
  /** Staff see private links; members never do. */
  withLinks: boolean;
}

/** The join-site address of a private price link. */
export function privatePriceUrl(token: string): string {
  return `${config.joinUrl}/?price=${encodeURIComponent(token)}`;
}

/** The join-site address of an organisation's age-bypass link. */
export function ageBypassUrl(token: string): string {
  return `${config.joinUrl}/?age_bypass=${encodeURIComponent(token)}`;
}

/**
 * Total value: a term's amount × the payments in the term starting today (a quote: weekly
 * payments in 12 months are 52 or 53 depending on the start); a PIF price's amount; null for an
 * ongoing (Flexi) price, which has no end.
 */
export function priceTotalValue(price: PriceRecord, today: CivilDate): number | null {
  if (price.term_amount != null && price.term_unit != null) {
    return totalValue(price.amount, price.billing_frequency, price.term_amount, price.term_unit, today);
  }
  return price.billing_frequency === "one_off" ? price.amount : null;
}

/** "$24.00 Weekly", "$20.00 Weekly · 12M Term", "$299.00 PIF". */
export function priceLabel(
  price: Pick<PriceRecord, "amount" | "billing_frequency" | "term_amount" | "term_unit"> & {
    visits?: number | null;
  },
): string {
  // A visit pass is paid once, like PIF, but is not a membership paid in full (docs/offers.md).
  if (priceKindOf(price) === "pass")
    return `${formatCents(price.amount)} Visit pass · ${visitsOf(price.visits!)}`;
  const base = `${formatCents(price.amount)} ${frequencyLabel[price.billing_frequency]}`;
  return price.term_amount != null && price.term_unit != null
    ? `${base} · ${formatTerm(price.term_amount, price.term_unit)}`
    : base;
}

export function presentPrice(price: PriceRecord, context: PriceContext): Price {
  const term = {
    billing_frequency: price.billing_frequency,
    term_amount: price.term_amount,
    term_unit: price.term_unit,
  };
  const isTerm = isTermMembership(term);
  const total = priceTotalValue(price, context.today);
  const cardSurcharge = surcharge(price.amount, context.surcharge);
  const joiningFee = price.joining_fee ?? null;
  return {
    id: price.price_id,
    offering_id: price.offering_id,
    offering: { id: context.offering.offering_id, name: context.offering.name },
    gym: null,
    amount: price.amount,
    formatted_amount: formatCents(price.amount),
    billing_frequency: price.billing_frequency,
    /** The frequency as shown; one_off is "PIF". */
    frequency_label: frequencyLabel[price.billing_frequency],
    label: priceLabel(price),
    joining_fee: joiningFee,
    formatted_joining_fee: joiningFee === null ? null : formatCents(joiningFee),
    private: price.private,
    private_links: context.withLinks
      ? price.private_links.map((link) => ({
          id: link.id,
          url: privatePriceUrl(link.token),
          age_bypass: link.age_bypass,
          created_at: link.created_at,
        }))
      : [],
    term_amount: price.term_amount ?? null,
    term_unit: price.term_unit ?? null,
    is_term_membership: isTerm,
    formatted_term: isTerm ? formatTerm(price.term_amount!, price.term_unit!) : null,
    ...trialOfPrice(price),
    kind: priceKindOf(price),
    visits: price.billing_frequency === "one_off" ? (price.visits ?? null) : null,
    valid_days: price.billing_frequency === "one_off" ? (price.valid_days ?? null) : null,
    formatted_pass: formatPass(price),
    /** "12M Term", "PIF" or "Flexi" (spec 001 §4). */
    membership_type: membershipTypeLabel(term),
    total_value: total,
    formatted_total_value: total === null ? null : formatCents(total),
    total_value_quoted_from: total === null ? null : context.today,
    surcharge: cardSurcharge,
    formatted_surcharge: formatCents(cardSurcharge),
    amount_with_surcharge: amountWithSurcharge(price.amount, context.surcharge),
    formatted_amount_with_surcharge: formatCents(amountWithSurcharge(price.amount, context.surcharge)),
    grouping_unique_identifier: price.grouping_unique_identifier,
    subscriptions_count: price.subscriptions_count,
    /** Deleting is offered only for a price nobody ever subscribed to; otherwise archive. */
    can_delete: price.subscriptions_count === 0,
    /** Offered to new members: neither the price nor its offering is archived. */
    offered: !price.archived_at && !context.offering.archived_at,
    archived_at: price.archived_at ?? null,
    created_at: price.created_at,
    updated_at: price.updated_at,
  };
}

/**
 * A price's trial as staff and the join site show it (docs/offers.md "Trials"): its days, its
 * cents (0: free) and its words; nulls without one.
 */
export function trialOfPrice(price: Pick<PriceRecord, "trial_days" | "trial_amount">) {
  return {
    trial_days: price.trial_days || null,
    trial_amount: price.trial_days ? (price.trial_amount ?? 0) : null,
    formatted_trial: formatTrial(price),
  };
}

/** "7-day free trial" or "14-day trial for $10.00" (docs/offers.md "Trials"); null without one. */
export function formatTrial(price: Pick<PriceRecord, "trial_days" | "trial_amount">): string | null {
  if (!price.trial_days) return null;
  const amount = price.trial_amount ?? 0;
  return amount === 0
    ? `${price.trial_days}-day free trial`
    : `${price.trial_days}-day trial for ${formatCents(amount)}`;
}

/**
 * A pass in words (docs/offers.md "Visit passes"): "10 visits, valid 90 days, $120.00 paid once";
 * a pass valid for its term: "10 visits, valid 3 months, …". Null for any other price.
 */
export function formatPass(
  price: Pick<
    PriceRecord,
    "amount" | "billing_frequency" | "visits" | "valid_days" | "term_amount" | "term_unit"
  >,
): string | null {
  if (priceKindOf(price) !== "pass" || !price.visits) return null;
  return `${visitsOf(price.visits)}, valid ${passValidity(price)}, ${formatCents(price.amount)} paid once`;
}

const visitsOf = (visits: number) => `${visits} ${visits === 1 ? "visit" : "visits"}`;

function passValidity(price: Pick<PriceRecord, "valid_days" | "term_amount" | "term_unit">): string {
  if (price.valid_days) return `${price.valid_days} ${price.valid_days === 1 ? "day" : "days"}`;
  const amount = price.term_amount ?? LEGACY_PIF_MONTHS;
  const unit = (price.term_unit ?? "months").replace(/s$/, "");
  return `${amount} ${amount === 1 ? unit : `${unit}s`}`;
}
