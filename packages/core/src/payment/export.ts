/**
 * `POST /api/payments/export`: the filtered payments list as CSV, produced page by page (one
 * Query page of EXPORT_PAGE items at a time, each written out before the next is read), so
 * memory stays flat however many payments match. Amounts in dollars (two decimals, no symbol, so
 * spreadsheets read them as numbers); dates en-NZ in Pacific/Auckland, types and statuses as the screens label them (contract/labels.ts). Cells written by exports/csv.ts (quoted, formulas neutralised).
 */

import type { Actor } from "../auth/actor";
import { authorize } from "../auth/policy";
import { adminGymIds, staffOrganisation } from "../auth/scope";
import { aucklandDate, type CivilDate } from "../billing/calendar";
import { businessToday } from "../clock";
import { labelOf, paymentKindLabels, paymentStatusLabels } from "../contract/labels";
import { paymentExportBody, paymentExportColumns } from "../contract/payment";
import { csvRows } from "../exports/csv";
import { civilDateNz, instantNz } from "../exports/dates";
import { type WrittenExport, writeExport } from "../exports/file";
import { titleCase } from "../text";
import { parse } from "../validation";
import { gymFilterOf, monthlyPaymentsPage } from "./list";
import type { PaymentRecord } from "./store";

export const EXPORT_PAGE = 500;

/** 1234 → "12.34" (integer arithmetic, no floating point). */
export function dollars(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

function periodDate(iso: string | null | undefined): string {
  return iso ? civilDateNz(aucklandDate(new Date(iso))) : "";
}

export function exportRow(p: PaymentRecord): string[] {
  return [
    p.payment_id,
    civilDateNz(p.due_on),
    titleCase(p.member_name),
    p.member_email,
    p.gym_name,
    p.price_label ?? "",
    labelOf(paymentKindLabels, p.type),
    labelOf(paymentStatusLabels, p.status),
    dollars(p.amount),
    dollars(p.surcharge),
    dollars(p.amount + p.surcharge),
    periodDate(p.period_start_at),
    periodDate(p.period_end_at),
    p.is_retry ? "yes" : "no",
    p.is_pro_rata ? "yes" : "no",
    [p.error_status, p.error_description].filter(Boolean).join(": "),
    p.processed_by ?? "",
    instantNz(p.created_at),
    dollars(p.discount ?? 0),
  ];
}

/** Checks access and filters first (so errors answer 422/403/404 before any CSV is sent). */
export function prepareExport(actor: Actor, body: unknown) {
  const organisationId = staffOrganisation(actor);
  const values = parse(paymentExportBody, body ?? {});
  const reachable = adminGymIds(actor);
  authorize(reachable.length > 0, "Only admins can export payments.");
  const gymIds = gymFilterOf(actor, values.gym_id, reachable);
  return { organisationId, values, gymIds };
}

/** The CSV, header first, then one chunk per page of payments, newest first. */
export async function* paymentsCsv(prepared: ReturnType<typeof prepareExport>): AsyncGenerator<string> {
  yield `\uFEFF${await csvRows([paymentExportColumns as unknown as string[]])}`;
  let cursor: string | undefined;
  do {
    const page = await monthlyPaymentsPage({
      organisationId: prepared.organisationId,
      gymIds: prepared.gymIds,
      filters: prepared.values,
      cursor,
      perPage: EXPORT_PAGE,
      budget: 5_000,
    });
    if (page.items.length) yield await csvRows(page.items.map(exportRow));
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
}

export function exportFileName(today: CivilDate): string {
  return `payments-${today}.csv`;
}

/** `POST /api/payments/export`: checks, then writes the file; answers where it is (docs/exports.md). */
export async function exportPayments(actor: Actor, body: unknown): Promise<WrittenExport> {
  const prepared = prepareExport(actor, body);
  return writeExport(prepared.organisationId, exportFileName(await businessToday()), paymentsCsv(prepared));
}
