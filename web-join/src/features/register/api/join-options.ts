import { apiFetcher } from "@gym/web/api";
import { mutate, preload } from "swr";

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

declare global {
  interface Window {
    /** The answer index.html's shell asked for (web-join/public/register-shell.js), once. */
    __joinOptions?: { key: string; data: Promise<unknown> };
  }
}

/** The shell's request for `key`, taken once (a later visit to `/` asks the API itself). */
function shellAnswer(key: string) {
  const early = typeof window === "undefined" ? undefined : window.__joinOptions;
  if (early?.key !== key) return undefined;
  window.__joinOptions = undefined;
  return early.data;
}

/**
 * `/`'s route loader (kept small: it is in the first download): asks for the link's gym and offer
 * while the page's code downloads, so the form draws as soon as both are here (SWR hands the
 * answer to the page's `useApi` with the same key). When index.html's shell already asked (and
 * draws the form from it), the app takes that answer instead of asking again, and its first
 * render waits for it, so it replaces the shell's form with its own, never with a loader.
 */
export function preloadJoinOptions({ request }: { request: Request }) {
  const links = joinLinks(new URL(request.url).searchParams);
  if (!(links.gym || links.price || links.age_bypass)) return null;
  const key = joinOptionsKey(links);
  const early = shellAnswer(key);
  if (!early) {
    preload(key, apiFetcher).catch(() => {});
    return null;
  }
  return early.then(
    async (data) => {
      // In SWR's cache for the first render, and as the mount's request (no second one).
      await mutate(key, data, { revalidate: false });
      preload(key, () => Promise.resolve(data));
      return null;
    },
    () => {
      preload(key, apiFetcher).catch(() => {});
      return null;
    },
  );
}
