/**
 * The offering and price forms: their values as typed, and the API body they turn into. The
 * rules and messages are the contract's (`offeringInput`, `priceInput` in @gym/core/contract):
 * a form validates the body it would send with the very schema the API checks, and the issues
 * land back on the form's fields. Nothing here restates a rule.
 */
import { dayNames } from "@gym/core/contract/hours";
import { type Offering, type OfferingBody, offeringInput } from "@gym/core/contract/offering";
import { type Price, type PriceBody, priceInput } from "@gym/core/contract/price";
import { ApiError, isApiError } from "@gym/web/api";
import { bodyFormSchema, centsOrNull, checkBody, isBlank, toCents, wholeOrNull, z } from "@gym/web/forms";

export const DAYS = dayNames.map((label, index) => ({ value: String(index + 1), label }));

// ---- Offering form ------------------------------------------------------------------------------

export interface HoursRowValues {
  /** Stable React key of the row. */
  key: string;
  /** The stored row's id when editing. */
  id: string | null;
  day: string;
  open_at: string;
  close_at: string;
}

export interface OfferingFormValues {
  name: string;
  description: string;
  type: Offering["type"] | "" | null;
  all_gyms_access: boolean;
  gyms: string[];
  mandated: boolean;
  hours_mandated: boolean;
  prices_mandated: boolean;
  hours: HoursRowValues[];
}

let rowKey = 0;
const nextKey = () => `row-${++rowKey}`;

export function emptyHoursRow(day = ""): HoursRowValues {
  return { key: nextKey(), id: null, day, open_at: "", close_at: "" };
}

/** A new offering starts with seven day rows, Monday to Sunday, with empty times (spec 001 §5). */
export function newOfferingValues(): OfferingFormValues {
  return {
    name: "",
    description: "",
    type: "",
    all_gyms_access: true,
    gyms: [],
    mandated: false,
    hours_mandated: false,
    prices_mandated: false,
    hours: DAYS.map((day) => emptyHoursRow(day.value)),
  };
}

export function offeringValues(offering: Offering): OfferingFormValues {
  return {
    name: offering.name,
    description: offering.description ?? "",
    type: offering.type,
    all_gyms_access: offering.all_gyms_access,
    gyms: offering.all_gyms_access ? [] : offering.gyms.map((gym) => gym.id),
    mandated: offering.mandated,
    hours_mandated: offering.hours_mandated,
    prices_mandated: offering.prices_mandated,
    hours: offering.hours.length
      ? offering.hours.map((row) => ({
          key: nextKey(),
          id: row.id,
          day: String(row.day),
          open_at: row.open_at,
          close_at: row.close_at,
        }))
      : DAYS.map((day) => emptyHoursRow(day.value)),
  };
}

/** A row with neither time is a closed day: it is left out, not an error. */
const isBlankRow = (row: HoursRowValues) => !row.open_at.trim() && !row.close_at.trim();

export interface OfferingSubmission {
  body: OfferingBody;
  /** For each sent hours row, its index in the form (blank rows are not sent). */
  hourIndexes: number[];
}

export function offeringSubmission(values: OfferingFormValues): OfferingSubmission {
  const limited = values.type === "limited_access";
  const hourIndexes = limited ? values.hours.flatMap((row, index) => (isBlankRow(row) ? [] : [index])) : [];
  return {
    hourIndexes,
    body: {
      name: values.name,
      description: values.description || null,
      type: (values.type || undefined) as OfferingBody["type"],
      all_gyms_access: values.all_gyms_access,
      gyms: values.all_gyms_access ? [] : values.gyms,
      mandated: values.mandated,
      hours_mandated: values.hours_mandated,
      prices_mandated: values.prices_mandated,
      hours: hourIndexes.map((index) => {
        const row = values.hours[index];
        return {
          id: row.id,
          day: (row.day ? Number(row.day) : undefined) as number,
          open_at: row.open_at.trim(),
          close_at: row.close_at.trim(),
        };
      }),
    },
  };
}

/** The body's hours are numbered as sent (blank rows left out): "hours.0.open_at" → "hours.3.open_at". */
const toFormRow = (hourIndexes: number[]) => (path: PropertyKey[]) =>
  path[0] === "hours" && typeof path[1] === "number" && hourIndexes[path[1]] !== undefined
    ? ["hours", hourIndexes[path[1]], ...path.slice(2)]
    : path;

export const offeringFormSchema = z
  .custom<OfferingFormValues>((value) => typeof value === "object" && value !== null)
  .transform((values, ctx): OfferingSubmission => {
    const { body, hourIndexes } = offeringSubmission(values);
    return { body: checkBody(offeringInput, body, ctx, toFormRow(hourIndexes)), hourIndexes };
  });

/** The server's 422 messages for hours rows, put back on the form's rows. */
export function onFormRows(error: unknown, hourIndexes: number[]): unknown {
  if (!isApiError(error) || error.status !== 422) return error;
  const toForm = toFormRow(hourIndexes);
  const errors: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(error.errors)) {
    const parts = field.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part));
    errors[toForm(parts).join(".")] = messages;
  }
  return new ApiError({
    status: error.status,
    message: error.message,
    errors,
    code: error.code,
    body: error.body,
  });
}

// ---- Price form ---------------------------------------------------------------------------------

export interface PriceFormValues {
  /** Dollars as typed in the number input ("" when empty). */
  amount: number | string;
  billing_frequency: Price["billing_frequency"] | "";
  private: boolean;
  joining_fee: number | string;
  term_amount: number | string;
  term_unit: NonNullable<Price["term_unit"]> | "" | null;
  /** docs/offers.md "Trials": days ("" no trial) and dollars for the whole trial ("" free). */
  trial_days: number | string;
  trial_amount: number | string;
  /** docs/offers.md "Visit passes": a pay-in-full price's visits ("" not a pass). */
  visits: number | string;
  /** A pass valid for days from its start ("" valid for its term). */
  valid_days: number | string;
}

export function newPriceValues(): PriceFormValues {
  return {
    amount: "",
    billing_frequency: "",
    private: false,
    joining_fee: "",
    term_amount: "",
    term_unit: null,
    trial_days: "",
    trial_amount: "",
    visits: "",
    valid_days: "",
  };
}

export function priceValues(price: Price): PriceFormValues {
  return {
    amount: price.amount / 100,
    billing_frequency: price.billing_frequency,
    private: price.private,
    joining_fee: price.joining_fee === null ? "" : price.joining_fee / 100,
    term_amount: price.term_amount ?? "",
    term_unit: price.term_unit,
    trial_days: price.trial_days ?? "",
    trial_amount: price.trial_days && price.trial_amount ? price.trial_amount / 100 : "",
    visits: price.visits ?? "",
    valid_days: price.valid_days ?? "",
  };
}

export function priceBody(values: PriceFormValues): PriceBody {
  return {
    amount: (isBlank(values.amount) ? undefined : toCents(values.amount)) as number,
    billing_frequency: (values.billing_frequency || undefined) as PriceBody["billing_frequency"],
    private: values.private,
    joining_fee: centsOrNull(values.joining_fee),
    term_amount: wholeOrNull(values.term_amount),
    term_unit: values.term_unit || null,
    trial_days: wholeOrNull(values.trial_days),
    trial_amount: centsOrNull(values.trial_amount),
    visits: wholeOrNull(values.visits),
    valid_days: wholeOrNull(values.valid_days),
  };
}

export const priceFormSchema = bodyFormSchema<PriceFormValues, typeof priceInput>(priceInput, priceBody);
