import { touchTheme } from "@gym/web/app";
import { AuthProvider } from "@gym/web/auth";
import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Subscription } from "../api/membership";
import { MembershipRoute } from "./membership";

/** Issue 22: a member's pause is end-inclusive on the page ("Last day"); the API's pause_end_at is the day after. */
function subscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: "s-1",
    user: { id: "u-1", name: "Sam Member", email: "sam@example.com" },
    gym: { id: "g-ponsonby", name: "Harbour Fitness Ponsonby" },
    price: {
      id: "p-term",
      label: "$20.00 Weekly, 12M Term",
      amount: 2000,
      formatted_amount: "$20.00",
      billing_frequency: "weekly",
      joining_fee: 0,
      offering: { id: "o-1", name: "24/7 Access" },
    },
    payment_method: "stripe_card",
    payment_type_id: "pt-1",
    start_date: "2026-09-01",
    billing_date: "2026-09-01",
    current_period_start: "2026-11-17T11:00:00.000Z",
    current_period_end: "2026-11-24T11:00:00.000Z",
    paused_at: null,
    pause_start_at: null,
    pause_end_at: null,
    pause_last_day: null,
    pause_days_credit: 30,
    pause_days_remaining: 30,
    pauses: [],
    cancelled_at: null,
    cancellation_effective_at: null,
    cancellation_reasons: [],
    cancellation_comments: null,
    undo_cancellation_until: null,
    cancelled_during_cooling_off_period: false,
    grace_period_ends_at: null,
    initial_state: null,
    upcoming_state: null,
    transition_to_date: null,
    transition_to_price: null,
    transition_takes_effect_at: null,
    created_at: "2026-09-01T00:00:00.000Z",
    force_price_amount: null,
    is_staging: false,
    cooling_period_ends_at: null,
    is_term_membership: true,
    on_term_membership_price: true,
    term_ends_at: "2027-09-01T12:00:00.000Z",
    latest_term_membership: null,
    pif_ends_at: null,
    private_price_link_id: null,
    payments_sum: 24_000,
    formatted_payments_sum: "$240.00",
    balance_owing: 0,
    formatted_balance_owing: "$0.00",
    credit_balance: 0,
    formatted_credit_balance: "$0.00",
    periods_owing: 0,
    hard_declined: false,
    next_retry_on: null,
    waiting_for_consent: false,
    version: 3,
    upcoming_payment: null,
    first_payment: null,
    latest_payment: null,
    is_paused: false,
    pause_in_future: false,
    is_cancelled: false,
    cancellation_taken_effect: false,
    undo_cancellation_possible: false,
    in_grace_period: false,
    grace_period_over: false,
    is_upcoming: false,
    is_active: true,
    card_colour: "green",
    on_cooling_period: false,
    currently_within_term_membership: true,
    membership_type: "12M Term",
    has_scheduled_price_change: false,
    price_change_takes_effect_at: null,
    start_now_offered: false,
    actions: {
      pause: true,
      remove_pause: false,
      cancel: true,
      undo_cancellation: false,
      start_now: false,
      manual_payment: true,
    },
    door_access: { standing: true, reason: "Active" },
    ...overrides,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the member's pause form", () => {
  it("sends the last day included: first day 10/12, last day 16/12 is a 7-day pause, back on 17/12", async () => {
    const sub = subscription({ is_term_membership: false, membership_type: "Flexi", term_ends_at: null });
    const { calls } = mockFetch((call) => {
      if (call.url === "/api/me/active-subscription") return jsonResponse({ data: sub });
      if (call.url.startsWith("/api/me/subscriptions/s-1/pause")) return jsonResponse({ data: sub });
      if (call.url.startsWith("/api/me")) return jsonResponse({ data: { id: "u-1", name: "Sam Member" } });
      return jsonResponse({ data: null });
    });
    const { user } = renderWithProviders(
      <AuthProvider>
        <MembershipRoute />
      </AuthProvider>,
      { route: "/membership", path: "/membership", theme: touchTheme },
    );
    const first = await screen.findByLabelText(/^First day/);
    fireEvent.change(first, { target: { value: "2026-12-10" } });
    fireEvent.change(screen.getByLabelText(/^Last day/), { target: { value: "2026-12-16" } });
    await user.click(screen.getByRole("button", { name: "Book the pause" }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith("/pause"))).toBe(true));
    const sent = calls.find((c) => c.url.endsWith("/pause"));
    expect(sent?.body).toEqual({ pause_start_at: "2026-12-10", pause_end_at: "2026-12-17" });
  });

  it("shows a booked pause by its last day and the day the member is back", async () => {
    const sub = subscription({
      is_term_membership: false,
      pause_start_at: "2026-12-09T11:00:00.000Z",
      pause_end_at: "2026-12-16T11:00:00.000Z",
      pause_last_day: "2026-12-16",
      pause_in_future: true,
      is_paused: true,
    });
    const { calls } = mockFetch((call) => {
      if (call.url === "/api/me/active-subscription") return jsonResponse({ data: sub });
      if (call.url.startsWith("/api/me/subscriptions/s-1/pause")) return jsonResponse({ data: sub });
      if (call.url.startsWith("/api/me")) return jsonResponse({ data: { id: "u-1", name: "Sam Member" } });
      return jsonResponse({ data: null });
    });
    const { user } = renderWithProviders(
      <AuthProvider>
        <MembershipRoute />
      </AuthProvider>,
      { route: "/membership", path: "/membership", theme: touchTheme },
    );
    expect(
      await screen.findByText(/Paused 10 December 2026 to 16 December 2026 \(back on 17 December 2026\)/),
    ).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Remove this pause" }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === "DELETE" && c.url === "/api/me/subscriptions/s-1/pause")).toBe(
        true,
      ),
    );
  });
});

describe("the member's notification switches", () => {
  it("shows the three switches from the registration state and saves one as it changes", async () => {
    const sub = subscription({ is_term_membership: false, membership_type: "Flexi", term_ends_at: null });
    const fields = {
      email_notifications_enabled: true,
      push_notifications_enabled: true,
      payment_reminders: true,
    };
    const { calls } = mockFetch((call) => {
      if (call.url === "/api/me/active-subscription") return jsonResponse({ data: sub });
      if (call.url === "/api/me/registration")
        return jsonResponse({
          data: {
            gym: { id: "g-ponsonby", name: "Harbour Fitness Ponsonby", logo: null },
            register_fields: fields,
          },
        });
      if (call.url === "/api/me/register-fields")
        return jsonResponse({ data: { ...fields, email_notifications_enabled: false } });
      if (call.url.startsWith("/api/me")) return jsonResponse({ data: { id: "u-1", name: "Sam Member" } });
      return jsonResponse({ data: null });
    });
    const { user } = renderWithProviders(
      <AuthProvider>
        <MembershipRoute />
      </AuthProvider>,
      { route: "/membership", path: "/membership", theme: touchTheme },
    );
    const emails = await screen.findByRole("switch", { name: /Emails about my membership/ });
    expect(emails).toBeChecked();
    expect(screen.getByRole("switch", { name: /^Payment reminders/ })).toBeChecked();
    expect(screen.getByRole("switch", { name: /^Push notifications/ })).toBeChecked();
    await user.click(emails);
    await waitFor(() => expect(calls.some((c) => c.url === "/api/me/register-fields")).toBe(true));
    expect(calls.find((c) => c.url === "/api/me/register-fields")?.body).toEqual({
      email_notifications_enabled: false,
    });
    await waitFor(() =>
      expect(screen.getByRole("switch", { name: /Emails about my membership/ })).not.toBeChecked(),
    );
  });
});
