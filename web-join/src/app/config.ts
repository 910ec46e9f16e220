import { siteUrl } from "@gym/web/auth";

/**
 * Where the staff site is: `VITE_STAFF_URL` at build time, else derived from this site's
 * address (localhost:3001 → localhost:3000; join.… → staff.…). Signed-in staff who land here
 * are sent to its dashboard.
 */
export function staffUrl(): string {
  return siteUrl("staff", window.location, import.meta.env.VITE_STAFF_URL);
}

/** Leaving for the other site; one place so tests can watch it. */
export const browser = {
  leave(href: string) {
    window.location.replace(href);
  },
  /** To a provider's page (bank consent, card form) that returns here; kept in history. */
  go(href: string) {
    window.location.assign(href);
  },
};
