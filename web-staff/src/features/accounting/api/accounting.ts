import type {
  AccountingMapping,
  AccountingMappingView,
  GstSummary,
  JournalStatus,
  Payout,
} from "@gym/core/contract/accounting";
import { api, useApi, useApiList } from "@gym/web/api";

export type { AccountingMapping, AccountingMappingView, GstSummary, JournalStatus, Payout };

const mappingPath = (organisationId: string) => `/api/organisations/${organisationId}/accounting`;

/** The account mapping (docs/accounting.md "The accounts"). */
export const useAccountingMapping = (organisationId: string | undefined) =>
  useApi<AccountingMappingView>(organisationId ? mappingPath(organisationId) : null);

export const saveAccountingMapping = (organisationId: string, body: AccountingMapping) =>
  api.put<AccountingMappingView>(mappingPath(organisationId), body);

const period = (from: string, to: string, gymId?: string | null) =>
  `from=${from}&to=${to}${gymId ? `&gym_id=${encodeURIComponent(gymId)}` : ""}`;

/** Which days of the period were exported before (null while the period is incomplete). */
export const useJournalStatus = (from: string | null, to: string | null, gymId?: string | null) =>
  useApi<JournalStatus>(
    from && to && from <= to ? `/api/accounting/journals?${period(from, to, gymId)}` : null,
  );

export const useGstSummary = (from: string | null, to: string | null) =>
  useApi<GstSummary>(from && to && from <= to ? `/api/accounting/gst-summary?${period(from, to)}` : null);

export const JOURNAL_EXPORT_PATH = "/api/accounting/journals/export";

/** The GST summary's CSV, as a file (a GET: no body, the session's cookie). */
export async function downloadGstCsv(from: string, to: string): Promise<{ blob: Blob; fileName: string }> {
  const response = await fetch(`/api/accounting/gst-summary?${period(from, to)}&format=csv`, {
    credentials: "include",
    headers: { "X-Requested-With": "XMLHttpRequest" },
  });
  if (!response.ok) throw new Error("The GST summary could not be downloaded. Please try again.");
  return { blob: await response.blob(), fileName: `gst-summary-${from}-to-${to}.csv` };
}

/** The period's deposits as a CSV file (one row per payment), through the export's 303. */
export const PAYOUT_EXPORT_PATH = "/api/payouts/export";

/** A page of the period's deposits (docs/accounting.md "Payouts"), newest first. */
export const usePayouts = (
  from: string | null,
  to: string | null,
  gymId: string | null,
  cursor: string | null,
) =>
  useApiList<Payout>(
    from && to && from <= to
      ? `/api/payouts?${period(from, to, gymId)}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`
      : null,
    { keepPreviousData: true },
  );
