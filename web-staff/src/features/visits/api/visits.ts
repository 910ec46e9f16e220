/**
 * Door access and visits calls for the staff pages (docs/access-control.md). Request and answer
 * types come from the contract in core (`@gym/core/contract/access`).
 */
import type {
  ActiveUsers,
  MemberAccessControl,
  SubscriptionPeriod,
  Visit,
  WeeklyCostPerVisit,
  WeeklyVisits,
} from "@gym/core/contract/access";
import { api, listSearch, useApi, useApiList } from "@gym/web/api";

export type { ActiveUsers, MemberAccessControl, SubscriptionPeriod, Visit, WeeklyCostPerVisit, WeeklyVisits };

export interface VisitFilterValues {
  gym_id: string | null;
  user_id: string | null;
  from: string | null;
  to: string | null;
}

export const visitSearch = listSearch<VisitFilterValues>(["gym_id", "user_id", "from", "to"]);
export const writeVisitSearch = visitSearch.write;
/** The export call's body: the list's filters that are set. */
export const visitExportBody = visitSearch.body;

export function useVisits(filters: VisitFilterValues, cursor: string | null, perPage = 25) {
  return useApiList<Visit>(`/api/visits?${visitSearch.query(filters, cursor, perPage)}`, {
    keepPreviousData: true,
  });
}

const member = (id: string, path: string) => `/api/members/${encodeURIComponent(id)}/${path}`;

export const useMemberAccess = (id: string) => useApi<MemberAccessControl>(member(id, "access-control"));
export const useWeeklyVisits = (id: string) => useApi<WeeklyVisits[]>(member(id, "weekly-visits?weeks=12"));
export const useWeeklyCostPerVisit = (id: string) =>
  useApi<WeeklyCostPerVisit[]>(member(id, "weekly-cost-per-visit?weeks=12"));
export const useSubscriptionPeriods = (id: string) =>
  useApi<SubscriptionPeriod[]>(member(id, "subscription-periods"));
/** One page of members (25 a page, in user id order); `cursor` is the page before's `next_cursor`. */
export const useActiveUsers = (cursor: string | null) =>
  useApi<ActiveUsers>(`/api/active-users${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`, {
    keepPreviousData: true,
  });

/** Re-sync the member's door access (a fresh Kisi credential when they are in good standing). */
export function resyncDoorAccess(userId: string) {
  return api.post<MemberAccessControl>(`/api/users/${encodeURIComponent(userId)}/recreate-kisi-login`);
}

/** Local only: the simulated Kisi records an unlock by the member at the door and posts its webhook. */
export function simulateUnlock(body: { user_id: string; door_id: string }) {
  return api.post<{ status: number; outcome: string }>("/api/dev/kisi/unlock", body);
}
