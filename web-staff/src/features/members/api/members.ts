/**
 * The members calls (spec 001 §7 Members, global search) for the staff pages. Request and answer
 * types come from the contract in core (`@gym/core/contract/member`).
 */
import type {
  Member,
  MemberActivity,
  MemberListItem,
  MemberState,
  MemberUpdateInput,
  SearchResult,
} from "@gym/core/contract/member";
import { api, useApi, useApiList } from "@gym/web/api";

export type { Member, MemberActivity, MemberListItem, MemberState, MemberUpdateInput, SearchResult };

export interface MemberFilterValues {
  state: MemberState | null;
  gym_id: string | null;
  payment_type: "stripe_card" | "bank_account" | "pif" | null;
  tag: string | null;
  sort: "name" | "joined" | null;
}

export const emptyMemberFilters: MemberFilterValues = {
  state: null,
  gym_id: null,
  payment_type: null,
  tag: null,
  sort: null,
};

const FILTER_KEYS = ["state", "gym_id", "payment_type", "tag", "sort"] as const;

/** Filters, cursor and page number from the address bar (so paging survives Back and reloads). */
export function readMemberSearch(params: URLSearchParams) {
  const filters = { ...emptyMemberFilters } as Record<(typeof FILTER_KEYS)[number], string | null>;
  for (const key of FILTER_KEYS) filters[key] = params.get(key) || null;
  const page = Number(params.get("page") ?? "1");
  return {
    filters: filters as unknown as MemberFilterValues,
    cursor: params.get("cursor"),
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

export function writeMemberSearch(filters: MemberFilterValues, cursor: string | null = null, page = 1) {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) if (filters[key]) params.set(key, String(filters[key]));
  if (cursor) {
    params.set("cursor", cursor);
    params.set("page", String(page));
  }
  return params;
}

export function useMembers(filters: MemberFilterValues, cursor: string | null, perPage = 25) {
  const params = writeMemberSearch(filters, cursor);
  params.delete("page");
  params.set("per_page", String(perPage));
  return useApiList<MemberListItem>(`/api/members?${params}`, { keepPreviousData: true });
}

export function useMember(id: string | undefined) {
  return useApi<Member>(id ? `/api/members/${encodeURIComponent(id)}` : null);
}

export function useMemberActivity(id: string | undefined) {
  return useApiList<MemberActivity>(
    id ? `/api/members/${encodeURIComponent(id)}/activity?per_page=100` : null,
  );
}

export function updateMember(id: string, body: MemberUpdateInput) {
  return api.put<Member>(`/api/members/${encodeURIComponent(id)}`, body);
}

export function searchMembers(query: string, signal?: AbortSignal) {
  return api.post<SearchResult[]>("/api/search", { query }, { signal });
}

/** Spec §4 card colours: green healthy, amber paused / grace / upcoming, red cancelled and over. */
export const stateLabels: Record<MemberState, string> = {
  active: "Active",
  upcoming: "Upcoming",
  paused: "Paused",
  grace: "Grace period",
  cancelled: "Cancelled",
  none: "No membership",
};
