import { ScrollToTop } from "@gym/web/app";
import { joinStaffGuard, readGuestFlag, useAuth } from "@gym/web/auth";
import { useEffect, useState } from "react";
import { Outlet } from "react-router-dom";
import { browser, staffUrl } from "./config";
import { PageLoader } from "./PageLoader";

/**
 * Every page: scroll back to the top on navigation, and send a signed-in staff user to the
 * staff dashboard (spec 000 §2: "A logged-in staff user is sent to the dashboard"). Guests see
 * the page at once; someone this browser remembers as signed in waits for the answer.
 */
export function RootLayout() {
  const { me } = useAuth();
  const [flag] = useState(readGuestFlag);
  const decision = joinStaffGuard(me, staffUrl());
  const href = decision.kind === "leave" ? decision.href : null;
  useEffect(() => {
    if (href) browser.leave(href);
  }, [href]);

  const waiting = (me === undefined && flag === "isNotGuest") || href !== null;
  return (
    <>
      <ScrollToTop />
      {waiting ? <PageLoader /> : <Outlet />}
    </>
  );
}
