import { useAuth } from "@gym/web/auth";
import { PageLoader } from "@gym/web/ui";
import { useEffect } from "react";
import { Navigate, Outlet, useLocation } from "react-router-dom";
import { useRegistration } from "../api/registration";
import { registrationDecision } from "../steps";

/**
 * Wraps every page after registering: refreshes the registration state on each of them and
 * sends the member to the step they are at (steps.ts `registrationDecision`).
 */
export function RegistrationGuard() {
  const { me } = useAuth();
  const location = useLocation();
  const member = me?.status === "signed_in" && !me.user.is_staff;
  const { data: state, error, mutate } = useRegistration(member);
  useEffect(() => {
    if (member) void mutate();
  }, [location.pathname, member]);

  if (error) throw error;
  const decision = registrationDecision(me, state, location.pathname, location.pathname + location.search);
  if (decision.kind === "navigate") return <Navigate to={decision.to} replace />;
  if (decision.kind === "wait") return <PageLoader />;
  return <Outlet />;
}
