/**
 * The payments calls (spec 001 §7 Payments) for the staff pages. Request and answer types come
 * from the single-sourced contract in core (`@gym/core/contract/payment`); amounts arrive in cents
 * with their formatted strings, so the pages never format money themselves.
 */
import type {
  ExpectedPayments,
  Payment,
  PaymentKindValue,
  PaymentStatusValue,
} from "@gym/core/contract/payment";
import { ApiError, api, listSearch, useApi, useApiList } from "@gym/web/api";

export type { ExpectedPayments, Payment, PaymentKindValue, PaymentStatusValue };

export interface PaymentFilterValues {
  status: PaymentStatusValue | null;
  type: PaymentKindValue | null;
  gym_id: string | null;
  from: string | null;
  to: string | null;
}

export const emptyFilters: PaymentFilterValues = {
  status: null,
  type: null,
  gym_id: null,
  from: null,
  to: null,
};

const paymentSearch = listSearch(["status", "type", "gym_id", "from", "to"] as const);

/** Filters, cursor and page number from the address bar (so paging survives Back and reloads). */
export function readSearch(params: URLSearchParams) {
  const read = paymentSearch.read(params);
  return { ...read, filters: read.filters as unknown as PaymentFilterValues };
}

export const writeSearch = (filters: PaymentFilterValues, cursor: string | null = null, page = 1) =>
  paymentSearch.write(filters, cursor, page);

export function usePayments(filters: PaymentFilterValues, cursor: string | null, perPage = 25) {
  return useApiList<Payment>(`/api/payments?${paymentSearch.query(filters, cursor, perPage)}`, {
    keepPreviousData: true,
  });
}

export function markReceived(paymentId: string) {
  return api.post<Payment>(`/api/payments/${encodeURIComponent(paymentId)}/received`);
}

export function useExpectedPayments(days: number) {
  return useApi<ExpectedPayments>(`/api/expected-payments-debugging?days=${days}`);
}

export interface BusinessClock {
  now: string;
  today: string;
  simulated: boolean;
}

/** Whether this site runs on this machine (`npm start`): only then is there a business clock to read. */
export function isLocalSite(hostname = window.location.hostname) {
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";
}

/**
 * The local business clock (`/api/dev/clock`). Only asked for on a local site: the route is never
 * mounted in AWS (a 404 there would mean real time anyway).
 */
export function useBusinessClock() {
  return useApi<BusinessClock>(isLocalSite() ? "/api/dev/clock" : null, {
    shouldRetryOnError: false,
    refreshInterval: 60_000,
  });
}

/**
 * Downloads the CSV export of the filtered list. The server streams it page by page; `onRows`
 * hears how many payment rows have arrived so far.
 */
export async function exportPayments(
  filters: PaymentFilterValues,
  onRows: (rows: number) => void,
  signal?: AbortSignal,
): Promise<{ blob: Blob; fileName: string; rows: number }> {
  const body = Object.fromEntries(paymentSearch.write(filters));
  const response = await fetch("/api/payments/export", {
    method: "POST",
    credentials: "include",
    headers: { "Content-Type": "application/json", "X-Requested-With": "XMLHttpRequest" },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) {
    const answer = (await response.json().catch(() => ({}))) as { message?: string; error?: string };
    throw new ApiError({
      status: response.status,
      message: answer.message ?? "The export failed. Please try again.",
      code: answer.error,
      errors: {},
      body: answer,
    });
  }
  const fileName =
    /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "")?.[1] ?? "payments.csv";
  const parts: Uint8Array[] = [];
  let lines = 0;
  const reader = response.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      for (const byte of value) if (byte === 10) lines++;
      onRows(Math.max(0, lines - 1));
    }
  }
  const rows = Math.max(0, lines - 1);
  return { blob: new Blob(parts as BlobPart[], { type: "text/csv" }), fileName, rows };
}

/** Saves a blob as a file through a temporary link. */
export function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
