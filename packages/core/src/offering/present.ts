/**
 * An offering as the API shows it, with the spec's computed fields (001 §3). Pure: the caller
 * passes its prices (already presented) and the organisation's gyms.
 */
import { type BillingFrequency, frequencyLabel, sortFrequencies } from "../billing/index";
import { dayName, formatWallTime, sortHours, summariseHours } from "../contract/hours";
import { type Offering, type OfferingType, offeringTypeLabel } from "../contract/offering";
import type { Price } from "../contract/price";

export interface OfferingRecord {
  organisation_id: string;
  offering_id: string;
  name: string;
  description?: string | null;
  type: OfferingType;
  all_gyms_access: boolean;
  gym_ids: string[];
  mandated: boolean;
  hours_mandated: boolean;
  prices_mandated: boolean;
  hours: { id: string; day: number; open_at: string; close_at: string }[];
  archived_at?: string | null;
  created_at: string;
  updated_at: string;
}

/** "Weekly, Fortnightly, PIF": the frequencies of the given prices, each once, in the spec's display order. */
export function formatFrequencies(frequencies: readonly BillingFrequency[]): string {
  const unique = sortFrequencies([...new Set(frequencies)]);
  return unique.length ? unique.map((f) => frequencyLabel[f]).join(", ") : "No prices";
}

/** "All gyms", or the selected gyms' names in the organisation's order. */
export function formatGymAccess(
  offering: Pick<OfferingRecord, "all_gyms_access" | "gym_ids">,
  gyms: readonly { gym_id: string; name: string }[],
): string {
  if (offering.all_gyms_access) return "All gyms";
  const names = gyms.filter((gym) => offering.gym_ids.includes(gym.gym_id)).map((gym) => gym.name);
  return names.length ? names.join(", ") : "No gyms";
}

export function presentOffering(
  offering: OfferingRecord,
  context: { prices: Price[]; gyms: readonly { gym_id: string; name: string }[] },
): Offering {
  const active = context.prices.filter((price) => !price.archived_at);
  const hours = sortHours(offering.hours);
  const typeLabel = offeringTypeLabel[offering.type];
  const pricesCount = active.length;
  return {
    id: offering.offering_id,
    name: offering.name,
    description: offering.description ?? null,
    type: offering.type,
    type_label: typeLabel,
    all_gyms_access: offering.all_gyms_access,
    gyms: offering.all_gyms_access
      ? context.gyms.map((gym) => ({ id: gym.gym_id, name: gym.name }))
      : context.gyms
          .filter((gym) => offering.gym_ids.includes(gym.gym_id))
          .map((gym) => ({ id: gym.gym_id, name: gym.name })),
    /** Offerings belong to the organisation, not one gym: always null (see `gyms`). */
    gym: null,
    mandated: offering.mandated,
    hours_mandated: offering.hours_mandated,
    prices_mandated: offering.prices_mandated,
    hours: hours.map((row) => ({
      id: row.id,
      day: row.day,
      day_name: dayName(row.day),
      open_at: row.open_at,
      close_at: row.close_at,
      open_at_formatted: formatWallTime(row.open_at),
      close_at_formatted: formatWallTime(row.close_at),
    })),
    hours_formatted: summariseHours(hours),
    prices: context.prices,
    /** Prices not archived. */
    prices_count: pricesCount,
    /** Subscriptions ever started on any of its prices. */
    subscriptions_count: context.prices.reduce((sum, price) => sum + price.subscriptions_count, 0),
    /** Deleting is offered only when none of its prices was ever subscribed to; otherwise archive. */
    can_delete: context.prices.every((price) => price.can_delete),
    /** "Anytime (24/7)". */
    title_formatted: `${offering.name} (${typeLabel})`,
    /** "All gyms · 3 prices". */
    subtitle_formatted: `${formatGymAccess(offering, context.gyms)} · ${pricesCount} ${pricesCount === 1 ? "price" : "prices"}`,
    /** Frequencies of its prices not archived, in display order ("Weekly, Fortnightly, PIF"). */
    frequencies_formatted: formatFrequencies(active.map((price) => price.billing_frequency)),
    archived_at: offering.archived_at ?? null,
    created_at: offering.created_at,
    updated_at: offering.updated_at,
  };
}
