/**
 * The promo code form (docs/offers.md "Making a code"): its values as typed (a percentage, dollars,
 * day-first dates) and the body it sends, checked with the contract's own schemas, so a rule or a
 * message lives only there. A new code sends `promoCodeInput`; a change sends `promoCodeUpdate` (the
 * terms: a code's name never changes).
 */
import { type PromoCode, promoCodeInput, promoCodeUpdate } from "@gym/core/contract/promo";
import { bodyFormSchema, centsOrNull, wholeOrNull } from "@gym/web/forms";

export interface PromoFormValues {
  code: string;
  kind: PromoCode["kind"];
  /** Percent off as typed ("12.5"); sent in basis points (hundredths of a percent). */
  percent: number | string;
  /** Dollars off each discounted period; sent in cents. */
  amount_off: number | string;
  /** The first N full periods ("" every period). */
  periods: number | string;
  /** Joins in all ("" no limit). */
  use_limit: number | string;
  starts_on: string | null;
  ends_on: string | null;
  /** "" every gym of the organisation. */
  gym_id: string;
  offering_ids: string[];
  price_ids: string[];
}

export function newPromoValues(): PromoFormValues {
  return {
    code: "",
    kind: "percent",
    percent: "",
    amount_off: "",
    periods: "",
    use_limit: "",
    starts_on: null,
    ends_on: null,
    gym_id: "",
    offering_ids: [],
    price_ids: [],
  };
}

/** A code's terms, to change them. */
export function promoValues(code: PromoCode): PromoFormValues {
  return {
    code: code.code,
    kind: code.kind,
    percent: code.percent_basis_points === null ? "" : code.percent_basis_points / 100,
    amount_off: code.amount_off === null ? "" : code.amount_off / 100,
    periods: code.periods ?? "",
    use_limit: code.use_limit ?? "",
    starts_on: code.starts_on,
    ends_on: code.ends_on,
    gym_id: code.gym?.id ?? "",
    offering_ids: code.offering_ids,
    price_ids: code.price_ids,
  };
}

function terms(values: PromoFormValues) {
  return {
    kind: values.kind,
    // Basis points are to a percent what cents are to a dollar.
    percent_basis_points: values.kind === "percent" ? centsOrNull(values.percent) : null,
    amount_off: values.kind === "fixed" ? centsOrNull(values.amount_off) : null,
    periods: wholeOrNull(values.periods),
    use_limit: wholeOrNull(values.use_limit),
    starts_on: values.starts_on || null,
    ends_on: values.ends_on || null,
    gym_id: values.gym_id || null,
    offering_ids: values.offering_ids,
    price_ids: values.price_ids,
  };
}

/** The API's field names where the form's differ (its 422s land on the form's fields). */
export const promoFieldMap = { percent_basis_points: "percent" };
const toForm = (path: PropertyKey[]) =>
  path[0] === "percent_basis_points" ? ["percent", ...path.slice(1)] : path;

export const newPromoFormSchema = bodyFormSchema<PromoFormValues, typeof promoCodeInput>(
  promoCodeInput,
  (values) => ({ code: values.code, ...terms(values) }),
  toForm,
);
export const promoTermsFormSchema = bodyFormSchema<PromoFormValues, typeof promoCodeUpdate>(
  promoCodeUpdate,
  terms,
  toForm,
);
