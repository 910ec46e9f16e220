import { apiFetcher } from "@gym/web/api";
import { preload } from "swr";

export interface JoinLinks {
  gym: string | null;
  price: string | null;
  age_bypass: string | null;
}

/** The link `/` was opened with: a gym's (`?gym=`), a private price's or an age-bypass link's token. */
export function joinLinks(params: URLSearchParams): JoinLinks {
  return { gym: params.get("gym"), price: params.get("price"), age_bypass: params.get("age_bypass") };
}

/** The link's query (`gym=…&price=…`, empty without a link). */
export function linkSearch(links: Partial<JoinLinks>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(links)) if (value) params.set(key, value);
  return params.toString();
}

/** GET /api/join for a link: the gym, its offer and the link's price or permission. */
export function joinOptionsKey(links: Partial<JoinLinks>) {
  return `/api/join?${linkSearch(links)}`;
}

/**
 * `/`'s route loader (kept small: it is in the first download): asks for the link's gym and offer
 * while the page's code downloads, so the form draws as soon as both are here (SWR hands the
 * answer to the page's `useApi` with the same key).
 */
export function preloadJoinOptions({ request }: { request: Request }) {
  const links = joinLinks(new URL(request.url).searchParams);
  if (links.gym || links.price || links.age_bypass)
    preload(joinOptionsKey(links), apiFetcher).catch(() => {});
  return null;
}
