/**
 * The member search index (spec 001 §2 "Top bar global search", `POST /api/search`), kept in the
 * table as members change: one `member_search_term` item per word of the name and one for the
 * email, under (organisation, first character). A search is one Query `begins_with` on the
 * longest word typed; other words typed narrow the answer in memory. No Scan, no reading every
 * member.
 *
 * **`indexMember` is the one function to call wherever a member is created or changes name,
 * email or gyms** (the role write `putRole` calls it for every member role, so registration, PIF
 * onboarding, seeds and tests are covered; staff edits call it too). It creates the organisation's
 * member record on first sight and rewrites the member's search terms.
 */
import { db } from "../db/service";
import { getUserOrNull } from "../user/service";

/** Lower case, accents and macrons removed ("Ngāti Whātua" → "ngati whatua"). */
export function fold(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .trim();
}

/** The words a name or query is searched by. */
export function wordsOf(text: string): string[] {
  return fold(text)
    .split(/[\s,]+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}@.+_-]+$/gu, ""))
    .filter(Boolean);
}

/** The sort key of a name in the members list. */
export function nameKeyOf(name: string): string {
  return wordsOf(name).join(" ").slice(0, 200) || "~";
}

/** Every term a member is found by: each name word (and its parts around hyphens/apostrophes) and the email. */
export function termsOf(name: string, email: string): string[] {
  const terms = new Set<string>();
  for (const word of wordsOf(name)) {
    terms.add(word);
    for (const part of word.split(/['’-]/)) if (part) terms.add(part);
  }
  const mail = fold(email);
  if (mail) terms.add(mail);
  return [...terms].filter((t) => t.length > 0).map((t) => t.slice(0, 200));
}

export interface MemberToIndex {
  organisation_id: string;
  user_id: string;
  /** Taken from the user record when left out. */
  name?: string;
  email?: string;
  /** The gyms the member belongs to (role `member_gym_ids`); kept as is when left out. */
  gym_ids?: string[];
}

/**
 * Creates or refreshes the organisation's member record and the member's search terms. Safe to
 * call again (idempotent). A deleted member stays out of search until restored.
 */
export async function indexMember(member: MemberToIndex) {
  const key = { organisation_id: member.organisation_id, user_id: member.user_id };
  const [{ data: existing }, user] = await Promise.all([
    db().entities.member.get(key).go(),
    member.name === undefined || member.email === undefined ? getUserOrNull(member.user_id) : null,
  ]);
  // The name this organisation knows the member by (its staff may have corrected it) stays.
  const name = member.name ?? existing?.name ?? user?.name ?? "";
  const email = member.email ?? user?.email ?? existing?.email ?? "";
  const gymIds = member.gym_ids ?? existing?.gym_ids ?? [];
  const copies = copiesOf(name, email, gymIds, Boolean(existing?.deleted_at));
  const terms = copies.search_terms;
  const record = existing
    ? { ...existing, ...copies }
    : {
        ...key,
        ...copies,
        joined_at: user?.created_at ?? new Date().toISOString(),
        tags: [] as string[],
      };
  // The record and its search terms are separate items: written side by side.
  await Promise.all([
    existing ? db().entities.member.patch(key).set(copies).go() : db().entities.member.create(record).go(),
    writeTerms(member.organisation_id, member.user_id, existing?.search_terms ?? [], terms, {
      name,
      email,
      gym_ids: gymIds,
    }),
  ]);
  return record;
}

/** The member record's copies for listing, and its search terms (none while deleted). */
function copiesOf(name: string, email: string, gymIds: string[], deleted: boolean) {
  const terms = deleted ? [] : termsOf(name, email);
  return { name, email, name_key: nameKeyOf(name), gym_ids: gymIds, search_terms: terms };
}

/** A search term item as written: the term under its first character, with the member's copies. */
function termItem(
  organisationId: string,
  userId: string,
  term: string,
  copy: { name: string; email: string; gym_ids: string[] },
) {
  return { organisation_id: organisationId, initial: term[0], term, user_id: userId, ...copy };
}

/**
 * The member record and search terms of a user the caller creates in its own transaction
 * (register), as `indexMember` would write them for someone with no record yet: the caller
 * creates them in that transaction (`terms`), or, for a name with more words than a transaction
 * should hold, writes `laterTerms` once it has committed.
 */
export function newMemberRecord(
  member: Required<MemberToIndex>,
  joinedAt: string,
  /** Search terms written in the caller's transaction at most; more are left to `laterTerms`. */
  inTransaction: number,
) {
  const copies = copiesOf(member.name, member.email, member.gym_ids, false);
  const copy = { name: member.name, email: member.email, gym_ids: member.gym_ids };
  const items = copies.search_terms.map((term) =>
    termItem(member.organisation_id, member.user_id, term, copy),
  );
  return {
    record: {
      organisation_id: member.organisation_id,
      user_id: member.user_id,
      ...copies,
      joined_at: joinedAt,
      tags: [] as string[],
    },
    terms: items.length <= inTransaction ? items : [],
    laterTerms: async () => {
      if (items.length > inTransaction) await db().entities.memberSearchTerm.put(items).go();
    },
  };
}

/** Takes a member out of search (soft delete). */
export async function unindexMember(organisationId: string, userId: string, terms: string[]) {
  await writeTerms(organisationId, userId, terms, [], { name: "", email: "", gym_ids: [] });
  await db()
    .entities.member.patch({ organisation_id: organisationId, user_id: userId })
    .set({ search_terms: [] })
    .go();
}

async function writeTerms(
  organisationId: string,
  userId: string,
  before: string[],
  after: string[],
  copy: { name: string; email: string; gym_ids: string[] },
) {
  const stale = before.filter((t) => !after.includes(t));
  if (stale.length) {
    await db()
      .entities.memberSearchTerm.delete(
        stale.map((term) => ({ organisation_id: organisationId, initial: term[0], term, user_id: userId })),
      )
      .go();
  }
  if (after.length) {
    await db()
      .entities.memberSearchTerm.put(after.map((term) => termItem(organisationId, userId, term, copy)))
      .go();
  }
}

/** At most this many index items are read for one search (a very common prefix). */
const SEARCH_READ = 300;
export const SEARCH_RESULTS = 10;

export interface SearchHit {
  id: string;
  name: string;
  email: string;
  gym_ids: string[];
}

/**
 * Members of the organisation whose name words or email start with every word typed, best
 * first (an exact word before a longer one, then by name). `gymIds` narrows to those gyms (null:
 * every gym).
 */
export async function searchIndex(
  organisationId: string,
  query: string,
  gymIds: string[] | null,
): Promise<SearchHit[]> {
  const typed = wordsOf(query).slice(0, 6);
  if (!typed.length) return [];
  const longest = [...typed].sort((a, b) => b.length - a.length)[0];
  const { data } = await db()
    .entities.memberSearchTerm.query.primary({ organisation_id: organisationId, initial: longest[0] })
    .begins({ term: longest })
    .go({ limit: SEARCH_READ, pages: 1 });
  const hits = new Map<string, SearchHit & { exact: boolean }>();
  for (const item of data) {
    if (!item.term.startsWith(longest)) continue;
    if (gymIds && !item.gym_ids.some((g) => gymIds.includes(g))) continue;
    const words = termsOf(item.name, item.email);
    if (!typed.every((t) => words.some((w) => w.startsWith(t)))) continue;
    const exact = item.term === longest;
    const seen = hits.get(item.user_id);
    if (!seen || (exact && !seen.exact))
      hits.set(item.user_id, {
        id: item.user_id,
        name: item.name,
        email: item.email,
        gym_ids: item.gym_ids,
        exact,
      });
  }
  return [...hits.values()]
    .sort((a, b) => Number(b.exact) - Number(a.exact) || a.name.localeCompare(b.name))
    .slice(0, SEARCH_RESULTS)
    .map(({ exact: _e, ...hit }) => hit);
}
