/**
 * The accounting calls (docs/accounting.md): the account mapping an organisation admin keeps, the
 * manual-journal export for Xero and the GST summary. Browser-safe: the staff pages import these.
 */
import { z } from "zod";
import { civilDateField, messages, optionalText } from "./fields";

/**
 * An account code as Xero writes it ("200", "090", "SALES"): letters, digits and a few marks, at most
 * 10 characters (Xero's limit). Never a leading `=`, `+`, `-` or `@`, so a code is never a formula.
 */
const accountCode = z
  .string({ error: messages.required })
  .trim()
  .min(1, { error: messages.required, abort: true })
  .max(10, "An account code has at most 10 characters")
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9 ._/]*$/,
    "Enter the account's code as your chart of accounts shows it (e.g. 200)",
  );

/** A tax rate's full name as Xero's tax settings name it ("15% GST on Income"). */
const taxRate = z
  .string({ error: messages.required })
  .trim()
  .min(1, messages.required)
  .max(50, "The maximum length allowed is 50 characters");

const accountMessages = {
  duplicateOffering: "This offering is mapped twice",
  duplicateGym: "This gym has two tracking options",
  range: "The end date must be on or after the start date",
  over: "Journals can be exported for days that are over: up to yesterday",
  tooLong: "Export at most 366 days at once",
  payoutsTooLong: "Show at most 92 days of payouts at once",
  perPage: "Enter a number from 1 to 100",
  cursor: "This page link is not valid: start from the first page",
} as const;

export { accountMessages };

/** The account mapping (one per organisation). Each account is a code of the organisation's Xero chart. */
/** Xero's standard NZ chart: 200 Sales, 260 Other Revenue, 404 Bank Fees, 090 Business Bank Account;
 * the clearing and member-credit codes are ours to add (docs/accounting.md). */
export const defaultAccountingMapping = {
  income_account: "200",
  income_tax_rate: "15% GST on Income",
  offerings: [],
  surcharge_account: "260",
  joining_fee_account: "200",
  break_fee_account: "260",
  fees_account: "404",
  fees_tax_rate: "15% GST on Expenses",
  credit_account: "835",
  refunds_account: "200",
  no_gst_tax_rate: "No GST",
  stripe_clearing_account: "621",
  akahu_clearing_account: "622",
  desk_clearing_account: "623",
  transfer_clearing_account: "624",
  bank_account: "090",
  tracking_name: "Gym",
  gyms: [],
};

export const accountingMappingInput = z
  .object({
    /** Memberships and pay-in-full: the default income account and its tax rate. */
    income_account: accountCode,
    income_tax_rate: taxRate,
    /** An offering's own income account and tax rate (else the default). */
    offerings: z
      .array(
        z.object({
          offering_id: z.string().trim().min(1, messages.required).max(64),
          account: accountCode,
          tax_rate: taxRate,
        }),
      )
      .max(200)
      .default([])
      .superRefine((rows, ctx) => {
        const seen = new Set<string>();
        rows.forEach((row, i) => {
          if (seen.has(row.offering_id))
            ctx.addIssue({
              code: "custom",
              path: [i, "offering_id"],
              message: accountMessages.duplicateOffering,
            });
          seen.add(row.offering_id);
        });
      }),
    surcharge_account: accountCode,
    joining_fee_account: accountCode,
    break_fee_account: accountCode,
    /** The providers' fees (an expense) and the tax rate they carry. */
    fees_account: accountCode,
    fees_tax_rate: taxRate,
    /** Credit held for members: a current liability. */
    credit_account: accountCode,
    refunds_account: accountCode,
    /** The rate of lines that carry no GST (clearing accounts). */
    no_gst_tax_rate: taxRate,
    /** One clearing account per way money arrives: settled here, emptied by the payout into the bank. */
    stripe_clearing_account: accountCode,
    akahu_clearing_account: accountCode,
    desk_clearing_account: accountCode,
    transfer_clearing_account: accountCode,
    bank_account: accountCode,
    /** Xero's tracking category (blank: no tracking), and each gym's option (else the gym's name). */
    tracking_name: optionalText(100),
    gyms: z
      .array(
        z.object({
          gym_id: z.string().trim().min(1, messages.required).max(64),
          tracking_option: optionalText(100),
        }),
      )
      .max(200)
      .default([])
      .superRefine((rows, ctx) => {
        const seen = new Set<string>();
        rows.forEach((row, i) => {
          if (seen.has(row.gym_id))
            ctx.addIssue({ code: "custom", path: [i, "gym_id"], message: accountMessages.duplicateGym });
          seen.add(row.gym_id);
        });
      }),
  })
  .meta({
    id: "AccountingMappingInput",
    example: defaultAccountingMapping,
  });
export type AccountingMapping = z.output<typeof accountingMappingInput>;

export const accountingMappingSchema = accountingMappingInput
  .extend({
    /** True while the organisation has never saved its mapping: every value is the default. */
    is_default: z.boolean(),
    updated_at: z.string().nullable(),
  })
  .meta({ id: "AccountingMapping" });
export type AccountingMappingView = z.output<typeof accountingMappingSchema>;

const civilDate = civilDateField();

/** A period of Auckland days (`from` ≤ `to`). */
const period = {
  from: civilDate,
  to: civilDate,
};
const inOrder = (v: { from: string; to: string }) => v.from <= v.to;

/** `POST /api/accounting/journals/export` body. */
export const journalExportBody = z
  .object({ ...period, gym_id: z.string().trim().min(1).max(64).optional() })
  .refine(inOrder, { path: ["to"], message: accountMessages.range })
  .meta({ id: "JournalExportInput", example: { from: "2026-11-01", to: "2026-11-30" } });

/** `GET /api/accounting/journals` query: which days of a period were exported before. */
export const journalStatusQuery = z
  .object({ ...period, gym_id: z.string().trim().min(1).max(64).optional() })
  .refine(inOrder, { path: ["to"], message: accountMessages.range });

export const journalStatusSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    /** Days (and gyms) of the period already exported: exporting again gives the same journals. */
    exported: z.array(
      z.object({ date: z.string(), gym_id: z.string(), exported_at: z.string(), lines: z.number().int() }),
    ),
    /** The days of the period that can be exported (over, in Auckland). */
    days: z.number().int(),
  })
  .meta({ id: "JournalStatus" });
export type JournalStatus = z.output<typeof journalStatusSchema>;

/** `GET /api/accounting/gst-summary` query (`format=csv` answers the same figures as a file). */
export const gstSummaryQuery = z
  .object({ ...period, format: z.enum(["json", "csv"]).optional() })
  .refine(inOrder, { path: ["to"], message: accountMessages.range });

export const gstSummarySchema = z
  .object({
    from: z.string(),
    to: z.string(),
    /** Whether the organisation has a GST number (receipts are then tax invoices). */
    gst_registered: z.boolean(),
    /** Total sales including GST, GST collected, zero-rated sales: the sums of the tax invoices. */
    total_sales: z.number().int(),
    gst_collected: z.number().int(),
    zero_rated: z.number().int(),
    invoices: z.number().int(),
    formatted_total_sales: z.string(),
    formatted_gst_collected: z.string(),
    formatted_zero_rated: z.string(),
  })
  .meta({ id: "GstSummary" });
export type GstSummary = z.output<typeof gstSummarySchema>;

/**
 * `GET /api/payouts` query (docs/accounting.md "Payouts"): the deposits that arrived in a period of
 * Auckland days (at most 92), newest first, paged.
 */
/** Which deposits: the payouts list's and its CSV's filters. */
const payoutFilters = {
  ...period,
  gym_id: z.string().trim().min(1).max(64).optional(),
  provider: z.enum(["stripe", "akahu"], { error: "Choose stripe or akahu" }).optional(),
};

export const payoutListQuery = z
  .object({
    ...payoutFilters,
    cursor: z.string().max(500, accountMessages.cursor).optional(),
    per_page: z.coerce
      .number({ error: accountMessages.perPage })
      .int(accountMessages.perPage)
      .min(1, accountMessages.perPage)
      .max(100, accountMessages.perPage)
      .optional(),
  })
  .refine(inOrder, { path: ["to"], message: accountMessages.range });

const journalLineSchema = z.object({
  description: z.string(),
  account: z.string(),
  tax_rate: z.string(),
  /** Cents: positive debit, negative credit. */
  amount: z.number().int(),
});

/** One deposit into the gym's bank: a Stripe payout, or a day's Akahu bank payments. */
/** `POST /api/payouts/export` body: the payouts list's filters, the whole period (no pages). */
export const payoutExportBody = z
  .object(payoutFilters)
  .refine(inOrder, { path: ["to"], message: accountMessages.range })
  .meta({ id: "PayoutExportInput", example: { from: "2026-11-01", to: "2026-11-30" } });

/** The payouts CSV: one row per payment inside a deposit (a deposit with none: one row), the deposit's columns repeated. */
export const payoutExportColumns = [
  "Deposit ID",
  "Provider",
  "Provider's payout ID",
  "Gym",
  "Arrival date",
  "Deposit (NZD)",
  "Fees (NZD)",
  "Payments (NZD)",
  "Adds up",
  "Problems",
  "Payment ID",
  "Provider's payment ID",
  "Member",
  "Payment (NZD)",
  "Payment fee (NZD)",
  "Payment problem",
] as const;

export const payoutSchema = z
  .object({
    /** `stripe:<po_…>` or `akahu:<gym>:<day>`. */
    id: z.string(),
    provider: z.enum(["stripe", "akahu"]),
    /** Stripe's payout id; for Akahu the day the bank payments settled. */
    provider_id: z.string(),
    gym_id: z.string(),
    gym_name: z.string(),
    /** The Auckland day the money reaches the bank. */
    arrival_date: z.string(),
    /** Cents: what reached the bank, the provider's fees, and the payments inside (amount + surcharge). */
    amount: z.number().int(),
    fee: z.number().int(),
    gross: z.number().int(),
    formatted_amount: z.string(),
    payments: z.array(
      z.object({
        payment_id: z.string().nullable(),
        provider_ref: z.string().nullable(),
        member_name: z.string().nullable(),
        amount: z.number().int(),
        fee: z.number().int(),
        /** Why this line is not one of our settled payments, as charged (null: it is). */
        problem: z.string().nullable(),
      }),
    ),
    /** False when the payments less the fees are not the deposit, or a line is not ours as charged. */
    adds_up: z.boolean(),
    problems: z.array(z.string()),
    /** The journal that matches the bank line: bank and fees debited, the clearing account credited. */
    journal: z.object({ narration: z.string(), date: z.string(), lines: z.array(journalLineSchema) }),
  })
  .meta({ id: "Payout" });
export type Payout = z.output<typeof payoutSchema>;

/** Xero's manual journal import template, in its order (help.xero.com "Import manual journals"). */
export const xeroJournalColumns = [
  "Narration",
  "Date",
  "Description",
  "AccountCode",
  "TaxRate",
  "Amount",
  "TrackingName1",
  "TrackingOption1",
] as const;

/** Xero imports at most this many lines from one file. */
export const XERO_LINES_PER_FILE = 300;
