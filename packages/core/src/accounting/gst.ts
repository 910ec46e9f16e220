/**
 * `GET /api/accounting/gst-summary` (docs/accounting.md "The GST summary"): the figures a GST return
 * needs for a period, as the sum of the tax invoices issued in it. Each paid payment's tax invoice
 * is dated the day it settled and says GST included = round_half_up(total × 3 / 23) of its total
 * (amount + card surcharge; billing/gst.ts, the one rule the receipt uses), so the summary adds the
 * same figures over the payments settled in the period. Nothing the product sells is zero-rated
 * (every supply is a New Zealand gym's): zero-rated is 0 and stays on the form because the return asks.
 */
import type { Actor } from "../auth/actor";
import { authorize, policy } from "../auth/policy";
import { staffOrganisation } from "../auth/scope";
import { gstIncluded } from "../billing/gst";
import { formatCents } from "../billing/money";
import { type GstSummary, gstSummaryQuery } from "../contract/accounting";
import { csvRows } from "../exports/csv";
import { getOrganisation } from "../organisation/service";
import { organisationSettings } from "../organisation/settings";
import { nzDate } from "../text";
import { parse } from "../validation";
import { settledPayments } from "./settled";

/** The tax invoice's GST of a paid payment (0 when the organisation has no GST number). */
export function invoiceGst(payment: { amount: number; surcharge: number }, registered: boolean) {
  return registered ? gstIncluded(payment.amount + payment.surcharge) : 0;
}

export async function gstSummary(actor: Actor, query: unknown): Promise<GstSummary> {
  const organisationId = staffOrganisation(actor);
  authorize(policy.manageOrganisation(actor), "Only organisation admins may see the GST summary.");
  const values = parse(gstSummaryQuery, query ?? {});
  const [org, payments] = await Promise.all([
    getOrganisation(organisationId),
    settledPayments({ organisationId, gymIds: null, from: values.from, to: values.to }),
  ]);
  const registered = Boolean(organisationSettings(org).gst_number);
  let total = 0;
  let gst = 0;
  for (const payment of payments) {
    total += payment.amount + payment.surcharge;
    gst += invoiceGst(payment, registered);
  }
  return {
    from: values.from,
    to: values.to,
    gst_registered: registered,
    total_sales: total,
    gst_collected: gst,
    zero_rated: 0,
    invoices: payments.length,
    formatted_total_sales: formatCents(total),
    formatted_gst_collected: formatCents(gst),
    formatted_zero_rated: formatCents(0),
  };
}

/** The summary as a small CSV (a header and one row a figure; amounts in dollars). */
export async function gstSummaryCsv(summary: GstSummary): Promise<string> {
  return `\uFEFF${await csvRows([
    ["Period", `${nzDate(summary.from)} to ${nzDate(summary.to)}`],
    ["Total sales including GST (NZD)", summary.total_sales],
    ["GST collected (NZD)", summary.gst_collected],
    ["Zero-rated sales (NZD)", summary.zero_rated],
    ["Tax invoices", String(summary.invoices)],
  ])}`;
}
