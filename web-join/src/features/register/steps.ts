import type { RegistrationState, RegistrationStepName } from "@gym/core/contract/registration";
import type { MeState } from "@gym/web/auth";

/** The registration steps after the register form, in the order a member meets them. */
export interface RegistrationStep {
  path: string;
  title: string;
  /** Where the step sits in the progression (spec 000 §4): photo 1, payment 2, confirm 3, welcome 4. */
  stage: number;
}

export const VERIFICATION_PATH = "/verification-code";
/** A signed-in member chooses a membership again (rejoining, or changing their choice). */
export const REJOIN_PATH = "/rejoin";
/** The member's own membership page (self-service), open once they are subscribed. */
export const MEMBERSHIP_PATH = "/membership";

export const REGISTRATION_STEPS: readonly RegistrationStep[] = [
  { path: "/take-photo", title: "Add a profile photo", stage: 1 },
  { path: "/choose-payment-method", title: "Choose how to pay", stage: 2 },
  { path: "/connect-akahu", title: "Connect your bank account", stage: 2 },
  { path: "/card-details", title: "Card details", stage: 2 },
  { path: "/bank-account-connected", title: "Bank account connected", stage: 2 },
  { path: "/card-connected", title: "Card connected", stage: 2 },
  { path: "/confirm-subscription", title: "Confirm your membership", stage: 3 },
  { path: "/welcome-to-gym", title: "Welcome", stage: 4 },
];

const stageOfStep: Record<RegistrationStepName, number> = {
  "take-photo": 1,
  "choose-payment-method": 2,
  "confirm-subscription": 3,
  "welcome-to-gym": 4,
};

export const stepPath = (step: RegistrationStepName) => `/${step}`;

/**
 * Where a signed-in member opening `/` goes: to choose again (`/rejoin`, keeping the join link's
 * query) when they have nothing left to confirm (a past member); else they resume at their step.
 */
export function memberLanding(state: RegistrationState, linkQuery: string): string {
  if (state.welcome || !state.choice_needed) return stepPath(state.step);
  return linkQuery ? `${REJOIN_PATH}?${linkQuery}` : REJOIN_PATH;
}

export type RegistrationDecision = { kind: "wait" } | { kind: "allow" } | { kind: "navigate"; to: string };

/**
 * The join site's route guard (spec 000 §4), decided from `GET /api/me` and the registration
 * state the server keeps:
 * - waiting for the emailed code → /verification-code?twoFactorAuth=true (keeping the path);
 * - nobody signed in (or the answer failed) → / (register) with the intended path kept;
 * - a member: the welcome page once subscribed; otherwise the step the server names
 *   (take-photo without a photo, else choose-payment-method without a payment type, else
 *   confirm-subscription). Pages up to that step stay open (a member may go back and change
 *   their photo or payment method); a page further on sends them to the step. A bank default
 *   that needs consent again sends them through the bank consent.
 * Staff are sent to the staff site by the root layout.
 */
export function registrationDecision(
  me: MeState | undefined,
  state: RegistrationState | undefined,
  pathname: string,
  intended: string,
): RegistrationDecision {
  if (!me) return { kind: "wait" };
  if (me.status === "two_factor")
    return {
      kind: "navigate",
      to: `${VERIFICATION_PATH}?twoFactorAuth=true&redirect=${encodeURIComponent(intended)}`,
    };
  // Only someone with an account reaches these pages (an email's link, a step after the code): the
  // sign-in form, which comes back here, not the new-member form.
  if (me.status !== "signed_in")
    return { kind: "navigate", to: `/?signin=1&redirect=${encodeURIComponent(intended)}` };
  if (me.user.is_staff || !state) return { kind: "wait" };
  const page = REGISTRATION_STEPS.find((step) => step.path === pathname);
  const target = stepPath(state.step);
  if (state.reauthenticate_akahu && pathname === "/connect-akahu") return { kind: "allow" };
  // A subscribed member may manage their membership (self-service) and change how they pay
  // (after a failed payment, or whenever they like).
  if (
    state.welcome &&
    (pathname === MEMBERSHIP_PATH || pathname.startsWith(`${MEMBERSHIP_PATH}/receipts/`) || page?.stage === 2)
  )
    return { kind: "allow" };
  if (state.welcome) return pathname === target ? { kind: "allow" } : { kind: "navigate", to: target };
  // A past member may still read their ended membership and its receipts (tour: /take-photo instead).
  if (
    state.ended_subscription &&
    (pathname === MEMBERSHIP_PATH || pathname.startsWith(`${MEMBERSHIP_PATH}/receipts/`))
  )
    return { kind: "allow" };
  if (pathname === REJOIN_PATH) return { kind: "allow" };
  if (state.choice_needed && page?.stage === stageOfStep["confirm-subscription"])
    return { kind: "navigate", to: REJOIN_PATH };
  if (!page || page.stage > stageOfStep[state.step]) return { kind: "navigate", to: target };
  return { kind: "allow" };
}
