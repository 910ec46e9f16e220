import type { CurrentUser } from "@gym/web/auth";

/**
 * The sidebar's entries (spec 000 §2 "Sidebar"), as data: the router uses the paths to mount a
 * "coming soon" page where no feature has its screen yet, so the sidebar never leads to a 404.
 * Icons are chosen in the Sidebar component, keeping this file out of the first download.
 */
export type NavIcon =
  | "dashboard"
  | "members"
  | "payments"
  | "visits"
  | "offerings"
  | "organisation"
  | "staff"
  | "gyms"
  | "settings"
  | "pro-rata";

export interface NavLinkEntry {
  kind: "link";
  label: string;
  /** Where the link goes. */
  path: string;
  icon: NavIcon;
  /** Highlighted on these paths and everything below them (defaults to `[path]`). */
  match?: string[];
  /** What the page is for (shown while its screen is being built). */
  description: string;
  /** Who sees the link (default: all staff). */
  visible?: (user: CurrentUser) => boolean;
}

export interface NavGroupEntry {
  kind: "group";
  label: string;
  icon: NavIcon;
  children: NavLinkEntry[];
  /** Who sees the group. */
  visible: (user: CurrentUser) => boolean;
}

export type NavEntry = NavLinkEntry | NavGroupEntry;

export const NAVIGATION: readonly NavEntry[] = [
  {
    kind: "link",
    label: "Dashboard",
    path: "/dashboard",
    icon: "dashboard",
    description: "Your gym at a glance.",
  },
  {
    kind: "link",
    label: "Members",
    path: "/members",
    icon: "members",
    description:
      "Find members, see their memberships and payments, change prices and add pay-in-full members.",
  },
  {
    kind: "link",
    label: "Payments",
    path: "/payments",
    icon: "payments",
    visible: seesMoney,
    description: "Every direct debit, card and pay-in-full payment, with its status.",
  },
  {
    kind: "link",
    label: "Visits",
    path: "/visits",
    icon: "visits",
    description: "Door check-ins at your gyms, as members arrive.",
  },
  {
    kind: "link",
    label: "Offerings",
    path: "/offerings",
    icon: "offerings",
    description: "Membership plans, their access hours and prices.",
  },
  {
    kind: "group",
    label: "Organisation",
    icon: "organisation",
    visible: (user) => user.is_organisation_admin,
    children: [
      {
        kind: "link",
        label: "Staff",
        path: "/staff",
        icon: "staff",
        description: "Invite staff, set their roles per gym and switch their access on or off.",
      },
      {
        kind: "link",
        label: "Gyms",
        path: "/gyms",
        icon: "gyms",
        description: "Your gyms: bank accounts, card payments, doors and visit tracking.",
      },
      {
        kind: "link",
        label: "Settings",
        path: "/organisation/settings",
        icon: "settings",
        description: "Offering permissions, price frequencies and grace periods.",
      },
      {
        kind: "link",
        label: "Accounting",
        path: "/accounting",
        icon: "payments",
        description: "Journals for Xero, the accounts they use, and the GST summary.",
      },
      {
        kind: "link",
        label: "Calculate Pro Rata",
        path: "/calculate-pro-rata",
        icon: "pro-rata",
        description: "Work out a first payment when a member starts between billing days.",
      },
    ],
  },
];

/** Pages only organisation admins may open; other staff are sent to /dashboard (spec 000 §6). */
export const ORGANISATION_ADMIN_PATHS: readonly string[] = ["/organisation/settings", "/accounting"];

/** Whether `pathname` is `prefix` or below it ("/members/1" is below "/members"). */
export function isWithin(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

export function isLinkActive(entry: NavLinkEntry, pathname: string): boolean {
  return (entry.match ?? [entry.path]).some((prefix) => isWithin(pathname, prefix));
}

/** Every link, groups flattened, in sidebar order. */
export function allLinks(entries: readonly NavEntry[] = NAVIGATION): NavLinkEntry[] {
  return entries.flatMap((entry) => (entry.kind === "link" ? [entry] : entry.children));
}

/** The entries this user sees. */
export function visibleEntries(user: CurrentUser, entries: readonly NavEntry[] = NAVIGATION): NavEntry[] {
  return entries.filter((entry) =>
    entry.kind === "link" ? (entry.visible?.(user) ?? true) : entry.visible(user),
  );
}

/**
 * The business's money (dashboard figures, payments, price changes, pro-rata quotes, pay-in-full
 * sign-ups) is for organisation and gym admins; personal trainers work with members and visits.
 * The API answers 403 to the same (docs/access-control.md "What each role sees").
 */
export function seesMoney(user: CurrentUser): boolean {
  return user.is_organisation_admin || user.is_gym_admin;
}
