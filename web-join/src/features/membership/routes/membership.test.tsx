import { touchTheme } from "@gym/web/app";
import { AuthProvider } from "@gym/web/auth";
import {
  jsonResponse,
  mockFetch,
  renderWithProviders,
  subscriptionFixture as subscription,
} from "@gym/web/testing";
import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MembershipRoute } from "./membership";

/**
 * Issue 22: a member's pause is end-inclusive on the page ("Last day"); the API's pause_end_at is
 * the day after. Issue 35: the staff dialog asks the same, and both show "first – last, back on …".
 */

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
    // The UI kit's date inputs, day first (issue 35), as on the staff site's pause dialog.
    const first = await screen.findByRole("textbox", { name: /^First day/ });
    expect(first).toHaveAttribute("placeholder", "DD/MM/YYYY");
    await user.type(first, "10/12/2026");
    await user.type(screen.getByRole("textbox", { name: /^Last day/ }), "16/12/2026");
    await user.click(screen.getByRole("heading", { name: "Pause my membership" }));
    expect(
      await screen.findByText(`Back on 17/12/2026. Uses 7 of ${sub.pause_days_remaining} pause days.`),
    ).toBeInTheDocument();
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
      actions: { ...subscription().actions, pause: false, remove_pause: true },
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
    expect(await screen.findByText("Paused 10/12/2026 – 16/12/2026, back on 17/12/2026")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Remove this pause" }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === "DELETE" && c.url === "/api/me/subscriptions/s-1/pause")).toBe(
        true,
      ),
    );
  });
});

/** `/membership` for a member whose live membership is `sub`. */
function showMembership(sub: ReturnType<typeof subscription>) {
  mockFetch((call) => {
    if (call.url === "/api/me/active-subscription") return jsonResponse({ data: sub });
    if (call.url.startsWith("/api/me")) return jsonResponse({ data: { id: "u-1", name: "Sam Member" } });
    return jsonResponse({ data: null });
  });
  renderWithProviders(
    <AuthProvider>
      <MembershipRoute />
    </AuthProvider>,
    { route: "/membership", path: "/membership", theme: touchTheme },
  );
}

describe("what the member is offered", () => {
  it("offers exactly the answer's actions (the server's rule): no pause or cancel when not offered", async () => {
    const sub = subscription({
      is_term_membership: false,
      pause_days_remaining: 30,
      actions: { ...subscription().actions, pause: false, cancel: false },
    });
    showMembership(sub);
    expect(await screen.findByText(/pause days left this year/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Book the pause" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /cancel/i })).not.toBeInTheDocument();
  });

  it("offers a paid-in-full member a pause when the answer does", async () => {
    const sub = subscription({
      is_term_membership: false,
      payment_method: "pif",
      pause_days_remaining: 30,
      actions: { ...subscription().actions, pause: true, manual_payment: false },
    });
    showMembership(sub);
    expect(await screen.findByRole("button", { name: "Book the pause" })).toBeInTheDocument();
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
