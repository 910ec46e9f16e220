import {
  type GuardDecision,
  guestGuard,
  type MeState,
  readGuestFlag,
  staffGuard,
  useAuth,
} from "@gym/web/auth";
import { toast } from "@gym/web/toast";
import { PageLoader } from "@gym/web/ui";
import { useEffect, useRef, useState } from "react";
import { matchPath, Navigate, Outlet, useLocation, useMatches, useSearchParams } from "react-router-dom";
import { ORGANISATION_ADMIN_PATHS } from "../features/shell/navigation";
import { browser, joinUrl } from "./config";

/** Route `handle` flags the guards read (spec 000 §2: `meta auth`, `useLayout`). */
export interface RouteHandle {
  /** Only organisation admins may open the page; other staff go to /dashboard. */
  organisationAdmin?: boolean;
  /** Only admins (organisation or gym) may open the page: a personal trainer goes to /dashboard. */
  admins?: boolean;
  /** `false`: the page needs sign-in but is shown without the sidebar and top bar. */
  useLayout?: boolean;
}

function isOrganisationAdminPage(pathname: string, handles: unknown[]): boolean {
  if (handles.some((handle) => (handle as RouteHandle | undefined)?.organisationAdmin)) return true;
  return ORGANISATION_ADMIN_PATHS.some((path) => matchPath({ path, end: false }, pathname));
}

/** Carries out a decision: moves within the site, or leaves for the join site. */
function Decision({ decision }: { decision: GuardDecision }) {
  const href = decision.kind === "leave" ? decision.href : null;
  const notice = decision.kind === "navigate" ? decision.notice : undefined;
  useEffect(() => {
    if (href) browser.leave(href);
  }, [href]);
  // One toast per notice (its id), however often the guard decides on the way to the dashboard.
  useEffect(() => {
    if (notice) toast.warn(notice, { id: `guard-${notice}` });
  }, [notice]);
  if (decision.kind === "navigate") return <Navigate to={decision.to} replace />;
  if (decision.kind === "leave") return <PageLoader label="Taking you to the join site" />;
  return <Outlet />;
}

/**
 * The guard of every staff page (spec 000 §4). A user already loaded is trusted; otherwise the
 * current user is fetched (once per guard, unless an answer arrives by itself) and the
 * decision is made on that answer: sign-in, the two-factor page, the join site for people who
 * are not staff, or /dashboard for organisation-admin pages.
 */
export function RequireStaff() {
  const auth = useAuth();
  const location = useLocation();
  const matches = useMatches();
  const mountedAt = useRef(auth.generation);
  const [rechecked, setRechecked] = useState<MeState | undefined>();
  const asked = useRef(false);

  const fresh = auth.generation > mountedAt.current;
  let me: MeState | undefined;
  if (auth.me?.status === "signed_in" || fresh) me = auth.me;
  else me = rechecked;

  const mustAsk = auth.me !== undefined && auth.me.status !== "signed_in" && !fresh && !rechecked;
  const { getCurrentUser } = auth;
  useEffect(() => {
    if (!mustAsk || asked.current) return;
    asked.current = true;
    void getCurrentUser().then(setRechecked);
  }, [mustAsk, getCurrentUser]);

  if (!me) return <PageLoader />;
  const decision = staffGuard(me, {
    intended: `${location.pathname}${location.search}${location.hash}`,
    organisationAdminOnly: isOrganisationAdminPage(
      location.pathname,
      matches.map((match) => match.handle),
    ),
    adminsOnly: matches.some((match) => (match.handle as RouteHandle | undefined)?.admins),
    joinUrl: joinUrl(),
  });
  return <Decision decision={decision} />;
}

/**
 * Guest-only pages (sign-in, passwords, two-factor, welcome): someone fully signed in is sent
 * on to `?redirect=` or /dashboard. A guest sees the page at once; someone this browser
 * remembers as signed in (the guest flag) waits for the answer instead of seeing the form flash.
 * The page a guest sees before the answer is the same element after it (one `Decision`), so
 * what they typed meanwhile stays: a different element there would draw the form anew, empty.
 */
export function GuestOnly() {
  const { me } = useAuth();
  const [params] = useSearchParams();
  const [flag] = useState(readGuestFlag);
  if (me === undefined && flag === "isNotGuest") return <PageLoader />;
  return (
    <Decision decision={me === undefined ? { kind: "allow" } : guestGuard(me, params.get("redirect"))} />
  );
}
