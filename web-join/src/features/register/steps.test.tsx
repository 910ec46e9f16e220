import type { RegistrationState } from "@gym/core/contract/registration";
import type { MeState } from "@gym/web/auth";
import { describe, expect, it } from "vitest";
import { memberLanding, registrationDecision } from "./steps";

const member = {
  status: "signed_in",
  user: { id: "u1", name: "Aroha", is_staff: false },
} as unknown as MeState;
const state = (overrides: Partial<RegistrationState>) =>
  ({ step: "take-photo", welcome: false, reauthenticate_akahu: false, ...overrides }) as RegistrationState;

describe("the join site's route guard (spec 000 §4)", () => {
  it("sends a session waiting for its code to the verification page, and a guest to sign in, keeping the path", () => {
    expect(registrationDecision({ status: "two_factor" }, undefined, "/take-photo", "/take-photo")).toEqual({
      kind: "navigate",
      to: "/verification-code?twoFactorAuth=true&redirect=%2Ftake-photo",
    });
    expect(
      registrationDecision({ status: "guest" }, undefined, "/card-details", "/card-details?x=1"),
    ).toEqual({
      kind: "navigate",
      to: "/?signin=1&redirect=%2Fcard-details%3Fx%3D1",
    });
    expect(registrationDecision(undefined, undefined, "/take-photo", "/take-photo")).toEqual({
      kind: "wait",
    });
  });

  it("sends a member to the step the server names, and lets them go back but not skip ahead", () => {
    const noPhoto = state({ step: "take-photo" });
    expect(registrationDecision(member, noPhoto, "/confirm-subscription", "")).toEqual({
      kind: "navigate",
      to: "/take-photo",
    });
    expect(registrationDecision(member, noPhoto, "/take-photo", "")).toEqual({ kind: "allow" });
    const noPayment = state({ step: "choose-payment-method" });
    expect(registrationDecision(member, noPayment, "/confirm-subscription", "")).toEqual({
      kind: "navigate",
      to: "/choose-payment-method",
    });
    for (const path of ["/take-photo", "/connect-akahu", "/card-details", "/card-connected"])
      expect(registrationDecision(member, noPayment, path, "")).toEqual({ kind: "allow" });
    expect(
      registrationDecision(member, state({ step: "confirm-subscription" }), "/confirm-subscription", ""),
    ).toEqual({
      kind: "allow",
    });
  });

  it("keeps a subscribed member on the welcome page, their membership page and the payment method pages", () => {
    const welcome = state({ step: "welcome-to-gym", welcome: true });
    for (const path of [
      "/membership",
      "/membership/receipts/01PAYMENT",
      "/choose-payment-method",
      "/card-details",
      "/card-connected",
    ])
      expect(registrationDecision(member, welcome, path, "")).toEqual({ kind: "allow" });
    expect(registrationDecision(member, welcome, "/confirm-subscription", "")).toEqual({
      kind: "navigate",
      to: "/welcome-to-gym",
    });
    // Not yet subscribed: the membership page sends them to their step.
    expect(registrationDecision(member, state({ step: "take-photo" }), "/membership", "")).toEqual({
      kind: "navigate",
      to: "/take-photo",
    });
    expect(registrationDecision(member, welcome, "/take-photo", "")).toEqual({
      kind: "navigate",
      to: "/welcome-to-gym",
    });
    expect(registrationDecision(member, welcome, "/welcome-to-gym", "")).toEqual({ kind: "allow" });
    expect(
      registrationDecision(member, { ...welcome, reauthenticate_akahu: true }, "/connect-akahu", ""),
    ).toEqual({
      kind: "allow",
    });
  });

  it("opens /membership to a member whose membership ended (its last day shown there), not their next step", () => {
    const ended = state({
      step: "take-photo",
      choice_needed: true,
      ended_subscription: { id: "s-1" } as RegistrationState["ended_subscription"],
    });
    expect(registrationDecision(member, ended, "/membership", "")).toEqual({ kind: "allow" });
    expect(registrationDecision(member, ended, "/membership/receipts/01PAYMENT", "")).toEqual({
      kind: "allow",
    });
    // Nothing ended and nothing live: still their step.
    expect(registrationDecision(member, state({ step: "take-photo" }), "/membership", "")).toEqual({
      kind: "navigate",
      to: "/take-photo",
    });
  });

  it("sends a member with nothing left to confirm (a past member) to choose again, and opens /rejoin until they subscribe", () => {
    const past = state({ step: "confirm-subscription", choice_needed: true });
    expect(registrationDecision(member, past, "/confirm-subscription", "")).toEqual({
      kind: "navigate",
      to: "/rejoin",
    });
    expect(registrationDecision(member, past, "/take-photo", "")).toEqual({ kind: "allow" });
    expect(registrationDecision(member, past, "/rejoin", "")).toEqual({ kind: "allow" });
    const welcome = state({ step: "welcome-to-gym", welcome: true });
    expect(registrationDecision(member, welcome, "/rejoin", "")).toEqual({
      kind: "navigate",
      to: "/welcome-to-gym",
    });
    expect(registrationDecision({ status: "guest" }, undefined, "/rejoin", "/rejoin?gym=g1")).toEqual({
      kind: "navigate",
      to: "/?signin=1&redirect=%2Frejoin%3Fgym%3Dg1",
    });
  });

  it("lands a past member who opens a join link on /rejoin (keeping the link); anyone else resumes at their step", () => {
    const ready = state({ step: "choose-payment-method", choice_needed: false });
    expect(memberLanding(ready, "gym=g1")).toBe("/choose-payment-method");
    const past = state({ step: "confirm-subscription", choice_needed: true });
    expect(memberLanding(past, "gym=g1&age_bypass=t")).toBe("/rejoin?gym=g1&age_bypass=t");
    expect(memberLanding(past, "")).toBe("/rejoin");
    expect(memberLanding(state({ step: "welcome-to-gym", welcome: true }), "gym=g1")).toBe("/welcome-to-gym");
  });
});
