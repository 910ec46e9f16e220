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
import { api, listSearch, useApi, useApiList } from "@gym/web/api";

export type { ExpectedPayments, Payment, PaymentKindValue, PaymentStatusValue };

export interface PaymentFilterValues {
  status: PaymentStatusValue | null;
  type: PaymentKindValue | null;
  gym_id: string | null;
  from: string | null;
  to: string | null;
}

export const paymentSearch = listSearch<PaymentFilterValues>(["status", "type", "gym_id", "from", "to"]);
export const emptyFilters = paymentSearch.empty;
export const writeSearch = paymentSearch.write;
/** The export call's body: the list's filters that are set. */
export const paymentExportBody = paymentSearch.body;

export function usePayments(filters: PaymentFilterValues, cursor: string | null, perPage = 25) {
  return useApiList<Payment>(`/api/payments?${paymentSearch.query(filters, cursor, perPage)}`, {
    keepPreviousData: true,
  });
}

export function markReceived(paymentId: string) {
  return api.post<Payment>(`/api/payments/${encodeURIComponent(paymentId)}/received`);
}

/** The page; `cursor` (the last page's `next_cursor`) goes on through the older payments that need attention. */
export function useExpectedPayments(days: number, cursor: string | null = null) {
  const more = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
  return useApi<ExpectedPayments>(`/api/expected-payments-debugging?days=${days}${more}`);
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
