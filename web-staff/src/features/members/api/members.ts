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
import { api, listSearch, useApi, useApiList } from "@gym/web/api";

export type { Member, MemberActivity, MemberListItem, MemberState, MemberUpdateInput, SearchResult };

export interface MemberFilterValues {
  state: MemberState | null;
  gym_id: string | null;
  payment_type: "stripe_card" | "bank_account" | "pif" | null;
  tag: string | null;
  sort: "name" | "joined" | null;
}

export const memberSearch = listSearch<MemberFilterValues>([
  "state",
  "gym_id",
  "payment_type",
  "tag",
  "sort",
]);
export const emptyMemberFilters = memberSearch.empty;
export const writeMemberSearch = memberSearch.write;
/** The export call's body: the list's filters that are set. */
export const memberExportBody = memberSearch.body;

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
