/**
 * The offering and price forms: their values as typed, the same rules and messages as the API
 * (spec 001 §5, §8), and the API body they turn into. The server checks everything again; its
 * 422 messages land on these fields.
 */
import { ApiError, isApiError } from "@gym/web/api";
import { MESSAGES, optionalText, requiredText, z } from "@gym/web/forms";
import type {
  BillingFrequency,
  Offering,
  OfferingBody,
  OfferingType,
  Price,
  PriceBody,
  TermUnit,
} from "./offerings";

export const FORM_MESSAGES = {
  required: MESSAGES.required,
  addDay: "Add at least one day",
  selectGym: "Select at least one gym",
  termUnit: "Please select a term unit",
  termAmount: "Please enter a term amount",
  closeAfterOpen: "Close time must be after open time",
  time: "Enter a time as HH:mm, for example 06:30",
  money: "Enter an amount in dollars and cents",
  termAmountRange: "Enter a term amount from 1 to 1200",
} as const;

export const DAYS = [
  { value: "1", label: "Monday" },
  { value: "2", label: "Tuesday" },
  { value: "3", label: "Wednesday" },
  { value: "4", label: "Thursday" },
  { value: "5", label: "Friday" },
  { value: "6", label: "Saturday" },
  { value: "7", label: "Sunday" },
];

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
  type: OfferingType | "" | null;
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

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
/** A row with neither time is a closed day: it is left out, not an error. */
const isBlankRow = (row: HoursRowValues) => !row.open_at.trim() && !row.close_at.trim();

export interface OfferingSubmission {
  body: OfferingBody;
  /** For each sent hours row, its index in the form (blank rows are not sent). */
  hourIndexes: number[];
}

export const offeringFormSchema = z
  .object({
    name: requiredText(),
    description: optionalText(),
    type: z
      .string()
      .nullable()
      .refine((type) => type === "24_7" || type === "limited_access", { error: MESSAGES.required }),
    all_gyms_access: z.boolean(),
    gyms: z.array(z.string()),
    mandated: z.boolean(),
    hours_mandated: z.boolean(),
    prices_mandated: z.boolean(),
    hours: z.array(
      z.object({
        key: z.string(),
        id: z.string().nullable(),
        day: z.string(),
        open_at: z.string(),
        close_at: z.string(),
      }),
    ),
  })
  .superRefine((values, ctx) => {
    if (!values.all_gyms_access && values.gyms.length === 0) {
      ctx.addIssue({ code: "custom", path: ["gyms"], message: FORM_MESSAGES.selectGym });
    }
    if (values.type !== "limited_access") return;
    values.hours.forEach((row, index) => {
      if (isBlankRow(row)) return;
      const path = (field: string) => ["hours", index, field];
      if (!row.day) ctx.addIssue({ code: "custom", path: path("day"), message: MESSAGES.required });
      for (const field of ["open_at", "close_at"] as const) {
        const value = row[field].trim();
        if (!value) ctx.addIssue({ code: "custom", path: path(field), message: MESSAGES.required });
        else if (!TIME.test(value))
          ctx.addIssue({ code: "custom", path: path(field), message: FORM_MESSAGES.time });
      }
      if (
        TIME.test(row.open_at) &&
        TIME.test(row.close_at) &&
        minutes(row.close_at) <= minutes(row.open_at)
      ) {
        ctx.addIssue({ code: "custom", path: path("close_at"), message: FORM_MESSAGES.closeAfterOpen });
      }
    });
    if (values.hours_mandated && values.hours.every(isBlankRow)) {
      ctx.addIssue({ code: "custom", path: ["hours"], message: FORM_MESSAGES.addDay });
    }
  })
  .transform((values): OfferingSubmission => {
    const limited = values.type === "limited_access";
    const hourIndexes = limited ? values.hours.flatMap((row, index) => (isBlankRow(row) ? [] : [index])) : [];
    return {
      hourIndexes,
      body: {
        name: values.name,
        description: values.description || null,
        type: values.type as OfferingType,
        all_gyms_access: values.all_gyms_access,
        gyms: values.all_gyms_access ? [] : values.gyms,
        mandated: values.mandated,
        hours_mandated: values.hours_mandated,
        prices_mandated: values.prices_mandated,
        hours: hourIndexes.map((index) => {
          const row = values.hours[index];
          return {
            id: row.id,
            day: Number(row.day),
            open_at: row.open_at.trim(),
            close_at: row.close_at.trim(),
          };
        }),
      },
    };
  });

/**
 * The server numbers hours rows as sent (blank rows left out); put its messages back on the rows
 * of the form ("hours.0.open_at" → "hours.3.open_at").
 */
export function onFormRows(error: unknown, hourIndexes: number[]): unknown {
  if (!isApiError(error) || error.status !== 422) return error;
  const errors: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(error.errors)) {
    const match = /^hours\.(\d+)\.(.+)$/.exec(field);
    const formIndex = match ? hourIndexes[Number(match[1])] : undefined;
    errors[match && formIndex !== undefined ? `hours.${formIndex}.${match[2]}` : field] = messages;
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
  billing_frequency: BillingFrequency | "";
  private: boolean;
  joining_fee: number | string;
  term_amount: number | string;
  term_unit: TermUnit | "" | null;
}

export function newPriceValues(): PriceFormValues {
  return {
    amount: "",
    billing_frequency: "",
    private: false,
    joining_fee: "",
    term_amount: "",
    term_unit: null,
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
  };
}

const isEmpty = (value: unknown) => value === "" || value === null || value === undefined;
/** Dollars to whole cents, rounded to the cent (the input allows two decimals). */
const toCents = (dollars: number | string) => Math.round(Number(dollars) * 100);
const isMoney = (value: number | string) => {
  const n = Number(value);
  return Number.isFinite(n) && n >= 0;
};

export const priceFormSchema = z
  .object({
    amount: z.union([z.number(), z.string()]),
    billing_frequency: z.string(),
    private: z.boolean(),
    joining_fee: z.union([z.number(), z.string()]),
    term_amount: z.union([z.number(), z.string()]),
    term_unit: z.string().nullable(),
  })
  .superRefine((values, ctx) => {
    if (isEmpty(values.amount))
      ctx.addIssue({ code: "custom", path: ["amount"], message: MESSAGES.required });
    else if (!isMoney(values.amount))
      ctx.addIssue({ code: "custom", path: ["amount"], message: FORM_MESSAGES.money });
    if (!values.billing_frequency) {
      ctx.addIssue({ code: "custom", path: ["billing_frequency"], message: MESSAGES.required });
    }
    if (!isEmpty(values.joining_fee) && !isMoney(values.joining_fee)) {
      ctx.addIssue({ code: "custom", path: ["joining_fee"], message: FORM_MESSAGES.money });
    }
    const hasAmount = !isEmpty(values.term_amount);
    const hasUnit = !isEmpty(values.term_unit);
    if (hasAmount && !hasUnit)
      ctx.addIssue({ code: "custom", path: ["term_unit"], message: FORM_MESSAGES.termUnit });
    if (hasUnit && !hasAmount) {
      ctx.addIssue({ code: "custom", path: ["term_amount"], message: FORM_MESSAGES.termAmount });
    }
    if (hasAmount) {
      const n = Number(values.term_amount);
      if (!Number.isInteger(n) || n < 1 || n > 1200) {
        ctx.addIssue({ code: "custom", path: ["term_amount"], message: FORM_MESSAGES.termAmountRange });
      }
    }
  })
  .transform(
    (values): PriceBody => ({
      amount: toCents(values.amount),
      billing_frequency: values.billing_frequency as BillingFrequency,
      private: values.private,
      joining_fee:
        isEmpty(values.joining_fee) || toCents(values.joining_fee) === 0 ? null : toCents(values.joining_fee),
      term_amount: isEmpty(values.term_amount) ? null : Number(values.term_amount),
      term_unit: isEmpty(values.term_unit) ? null : (values.term_unit as TermUnit),
    }),
  );
