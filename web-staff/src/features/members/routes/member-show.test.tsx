import type { Member } from "@gym/core/contract/member";
import { subscriptionFixture as subscription } from "@gym/web/testing";
import { screen, within } from "@testing-library/react";
import { beforeAll, describe, expect, it } from "vitest";
import { mockApi, renderApp, signedIn, staffUser } from "../../../app/test-support";
import { membersRoutes } from ".";

/** A member of Ponsonby whose latest membership is `sub`. */
function memberFixture(sub: ReturnType<typeof subscription>): Member {
  const { payments: _p, ...latest } = sub;
  return {
    id: "u-1",
    name: "Sam Member",
    email: "sam@example.com",
    mobile_number: null,
    dob: null,
    email_notifications_enabled: true,
    push_notifications_enabled: true,
    payment_reminders: true,
    emergency_contact: { name: null, mobile_number: null, email: null, relationship: null },
    latest_subscription: latest,
    state: sub.in_grace_period ? "in_grace_period" : "active",
    default_payment_type: null,
    payment_types: [],
    recent_payments: [],
    profile_picture: null,
    visits_count: 0,
    notes: null,
    access_control_credentials: [],
    reauthenticate_akahu: false,
    has_akahu_connection: false,
    is_returning_member: false,
    address: null,
    suburb: null,
    city: null,
    post_code: null,
    confidence_and_experience: null,
    hear_about_us: null,
    tags: [],
    gyms: [{ id: "g-ponsonby", name: "Harbour Fitness Ponsonby" }],
    should_onboard: false,
    invited_at: null,
    created_at: "2026-09-01T00:00:00.000Z",
    updated_at: "2026-09-01T00:00:00.000Z",
    deleted_at: null,
  } as Member;
}

beforeAll(() => {
  // The notes form's autosizing textarea listens for fonts loading, which happy-dom has no list of.
  if (!document.fonts)
    Object.defineProperty(document, "fonts", {
      configurable: true,
      value: { addEventListener() {}, removeEventListener() {} },
    });
});

const access = (standing: boolean) => ({
  user_id: "u-1",
  access_control_enabled: true,
  standing,
  reason: standing ? "Active" : "Payment overdue",
  entries: [],
});

describe("the member page after a desk payment (issue 34 item 13)", () => {
  it("shows the door standing the payment restored, without a reload", { timeout: 60_000 }, async () => {
    const owing = subscription({
      balance_owing: 2400,
      formatted_balance_owing: "$24.00",
      in_grace_period: true,
      door_access: { standing: false, reason: "Payment overdue" },
      actions: { ...subscription().actions, manual_payment: true },
    });
    const paid = subscription({ door_access: { standing: true, reason: "Active" } });
    let cleared = false;
    mockApi({
      "GET /api/me": signedIn(staffUser()),
      "GET /api/members/u-1": () =>
        new Response(JSON.stringify({ data: memberFixture(cleared ? paid : owing) }), {
          headers: { "content-type": "application/json" },
        }),
      "GET /api/subscriptions/s-1": () =>
        new Response(JSON.stringify({ data: cleared ? paid : owing }), {
          headers: { "content-type": "application/json" },
        }),
      "GET /api/members/u-1/access-control": () =>
        new Response(JSON.stringify({ data: access(cleared) }), {
          headers: { "content-type": "application/json" },
        }),
      "POST /api/subscriptions/s-1/manual-payment": () => {
        cleared = true;
        return new Response(JSON.stringify({ data: paid }), {
          headers: { "content-type": "application/json" },
        });
      },
    });
    const { user } = renderApp("/members/u-1", { features: membersRoutes });
    // The page is a lazy route with charts: its first render may take a few seconds on a busy machine.
    const door = await screen.findByRole("region", { name: "Door access" }, { timeout: 20_000 });
    expect(await within(door).findByText("Payment overdue")).toBeInTheDocument();

    await user.click(await screen.findByRole("button", { name: "Record a payment" }));
    const dialog = await screen.findByRole("dialog", { name: "Record a payment" });
    await user.click(within(dialog).getByRole("button", { name: "Record payment" }));

    // The door panel reads the standing again: no reload needed.
    expect(await within(door).findByText("Active", {}, { timeout: 5_000 })).toBeInTheDocument();
  });
});
