import type { MeState } from "./types";

/** What a guard decided: show the page, move within the site, or leave for the other site. */
export type GuardDecision =
  | { kind: "allow" }
  | {
      kind: "navigate";
      to: string /** Said where the person lands (why they were moved). */;
      notice?: string;
    }
  | { kind: "leave"; href: string };

export const LOGIN_PATH = "/login";
export const TWO_FACTOR_PATH = "/two-factor-authentication";
export const DASHBOARD_PATH = "/dashboard";
/** Told to staff sent away from an organisation-admin page. */
export const ORGANISATION_ADMIN_ONLY_NOTICE = "Only organisation admins can open that page.";
/** Told to a personal trainer sent away from an admins' page (payments, prices: the money). */
export const ADMINS_ONLY_NOTICE = "Only admins can open that page: it shows the gym's money.";

/** Only same-site paths are followed after sign-in (never `//evil.example` or `https://…`). */
export function safeRedirect(value: string | null | undefined, fallback: string = DASHBOARD_PATH): string {
  return value?.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\") ? value : fallback;
}

export function withRedirect(path: string, redirect: string): string {
  return `${path}?redirect=${encodeURIComponent(redirect)}`;
}

export interface StaffGuardOptions {
  /** The path (with query) the person was going to; kept in `?redirect=`. */
  intended: string;
  /** The page may be opened by organisation admins only (other staff go to the dashboard). */
  organisationAdminOnly?: boolean;
  /** The page may be opened by admins only, organisation or gym (a trainer goes to the dashboard). */
  adminsOnly?: boolean;
  /** The join site's origin: a signed-in person who is not staff is sent to register there. */
  joinUrl: string;
}

/**
 * The staff route guard (spec 000 §4), decided on the answer of `GET /api/me`:
 * - awaiting the emailed code → the two-factor page (keeping the redirect);
 * - nobody signed in, or the answer failed for another reason → /login?redirect=<intended>
 *   (of the spec's two readings of "any other failure" we pick sign-in, never an empty page);
 * - signed in but not staff → the join site's register page;
 * - an organisation-admin page for someone who is not one, or an admins' page for a personal
 *   trainer → /dashboard, with the notice that says why.
 */
export function staffGuard(me: MeState, options: StaffGuardOptions): GuardDecision {
  switch (me.status) {
    case "two_factor":
      return { kind: "navigate", to: withRedirect(TWO_FACTOR_PATH, options.intended) };
    case "guest":
      if (me.signedOut) return { kind: "navigate", to: LOGIN_PATH };
      return { kind: "navigate", to: withRedirect(LOGIN_PATH, options.intended) };
    case "failed":
      return { kind: "navigate", to: withRedirect(LOGIN_PATH, options.intended) };
    case "signed_in":
      if (!me.user.is_staff) return { kind: "leave", href: `${options.joinUrl}/` };
      if (options.organisationAdminOnly && !me.user.is_organisation_admin) {
        return { kind: "navigate", to: DASHBOARD_PATH, notice: ORGANISATION_ADMIN_ONLY_NOTICE };
      }
      if (options.adminsOnly && !me.user.is_organisation_admin && !me.user.is_gym_admin) {
        return { kind: "navigate", to: DASHBOARD_PATH, notice: ADMINS_ONLY_NOTICE };
      }
      return { kind: "allow" };
  }
}

/**
 * Guest-only pages (sign-in, passwords, two-factor, welcome) send someone who is fully signed
 * in onward: to the `redirect` query target, else the dashboard.
 */
export function guestGuard(me: MeState, redirect: string | null | undefined): GuardDecision {
  if (me.status === "signed_in") return { kind: "navigate", to: safeRedirect(redirect) };
  return { kind: "allow" };
}

/** The join site sends a signed-in staff user to the staff dashboard (spec 000 §2). */
export function joinStaffGuard(me: MeState | undefined, staffUrl: string): GuardDecision {
  if (me?.status === "signed_in" && me.user.is_staff) {
    return { kind: "leave", href: `${staffUrl}${DASHBOARD_PATH}` };
  }
  return { kind: "allow" };
}
