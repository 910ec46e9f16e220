import { siteUrl } from "@gym/web/auth";

/**
 * Where the join site is: `VITE_JOIN_URL` at build time, else derived from this site's address
 * (localhost:3000 → localhost:3001; staff.… or admin.… → join.…). Signed-in people who are not
 * staff are sent to its register page.
 */
export function joinUrl(): string {
  return siteUrl("join", window.location, import.meta.env.VITE_JOIN_URL);
}

/** Leaving for the other site; one place so tests can watch it. */
export const browser = {
  leave(href: string) {
    window.location.replace(href);
  },
};
