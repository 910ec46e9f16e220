/**
 * Whether a promo code may be used for a join (docs/offers.md "Promo codes"), and the reason a
 * person reads when it may not. Pure: the caller reads the code, the price, the offerings and the
 * member's use of it.
 */
import type { DiscountTerms } from "../billing/discount";
import { formatBasisPoints, formatCents } from "../billing/money";
import { emailDate } from "../email/format";
import { membershipName } from "../text";
import type { PromoCodeRecord } from "./store";

export const promoRefusals = {
  unknown: "We don't know this code. Check how it is spelt.",
  archived: "This code is no longer offered.",
  expired: "This code has expired",
  notYet: (day: string) => `This code can be used from ${emailDate(day)}`,
  usedUp: "This code has been used up",
  usedByMember: "You have already used this code",
  gym: (gymName: string) => `This code is for members of ${gymName}`,
  offerings: (names: string[]) =>
    `This code is for the ${
      names.length > 1
        ? `${names.slice(0, -1).join(", ")} or ${membershipName(names[names.length - 1])}`
        : membershipName(names[0] ?? "other")
    }`,
  /** The code names other prices of the membership being joined. */
  otherPrice: (name: string) => `This code is for another price of the ${membershipName(name)}`,
} as const;

export interface JoinFacts {
  today: string;
  gym_id: string;
  price_id: string;
  offering_id: string;
  /** The member has used this code before. */
  used_by_member: boolean;
  /** The code's offerings: its chosen offerings, and the offerings of its chosen prices (`by_price`). */
  code_offerings: { id: string; name: string; by_price: boolean }[];
  gym_name: string;
}

/** The reason the code may not be used for this join, or null when it may. */
export function refusalOf(code: PromoCodeRecord, facts: JoinFacts): string | null {
  if (code.archived_at) return promoRefusals.archived;
  if (code.ends_on && facts.today > code.ends_on) return promoRefusals.expired;
  if (code.starts_on && facts.today < code.starts_on) return promoRefusals.notYet(code.starts_on);
  if (code.gym_id && code.gym_id !== facts.gym_id) return promoRefusals.gym(facts.gym_name);
  const restricted = code.offering_ids.length > 0 || code.price_ids.length > 0;
  if (
    restricted &&
    !code.offering_ids.includes(facts.offering_id) &&
    !code.price_ids.includes(facts.price_id)
  ) {
    const joined = facts.code_offerings.find((o) => o.by_price && o.id === facts.offering_id);
    return joined
      ? promoRefusals.otherPrice(joined.name)
      : promoRefusals.offerings(facts.code_offerings.map((o) => o.name));
  }
  if (code.use_limit != null && code.uses >= code.use_limit) return promoRefusals.usedUp;
  if (facts.used_by_member) return promoRefusals.usedByMember;
  return null;
}

export function termsOf(code: PromoCodeRecord): DiscountTerms {
  return { kind: code.kind, value: code.value, periods: code.periods ?? null };
}

/** How a person reads the terms: "50% off the first period", "$10.00 off every period". */
export function summaryOf(code: Pick<PromoCodeRecord, "kind" | "value" | "periods">): string {
  const off = `${code.kind === "percent" ? formatBasisPoints(code.value) : formatCents(code.value)} off`;
  if (code.periods == null) return `${off} every period`;
  return code.periods === 1 ? `${off} the first period` : `${off} the first ${code.periods} periods`;
}
