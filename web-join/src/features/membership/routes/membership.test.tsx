import { touchTheme } from "@gym/web/app";
import { AuthProvider } from "@gym/web/auth";
import {
  jsonResponse,
  mockFetch,
  paymentFixture,
  quoteFixture as quote,
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

describe("the figures on the member's page are core's quote of the next money event (issue 34)", () => {
  it("credit is shown, and the next payment is the total after it: $18.75 with $6.00 from credit (item 11)", async () => {
    const sub = subscription({
      credit_balance: 600,
      formatted_credit_balance: "$6.00",
      next_charge: quote({
        amount: 2400,
        formatted_amount: "$24.00",
        credit_applied: 600,
        formatted_credit_applied: "$6.00",
        surcharge: 75,
        formatted_surcharge: "$0.75",
        total: 1875,
        formatted_total: "$18.75",
        credit_balance: 600,
      }),
    });
    showMembership(sub);
    expect(await screen.findByTestId("next-payment")).toHaveTextContent(
      "Next payment $18.75 on 24 November 2026 ($6.00 paid from your credit)",
    );
    expect(screen.getByTestId("credit")).toHaveTextContent("Credit $6.00");
  });

  it("a price change still to come is named beside the price the next payment is already at (hand tour)", async () => {
    // Staff moved the member from $24.00 to $15.00 Weekly from 5 December; the next payment is
    // quoted at the new price ($15.00 − $6.00 credit + $0.53), so the page says why.
    const sub = subscription({
      price: { ...subscription().price, label: "$24.00 Weekly", amount: 2400, formatted_amount: "$24.00" },
      pending_price_change: {
        price_id: "p-15",
        label: "$15.00 Weekly",
        amount: 1500,
        formatted_amount: "$15.00",
        takes_effect_on: "2026-12-05",
      },
    });
    showMembership(sub);
    expect(await screen.findByTestId("price-change")).toHaveTextContent(
      "From 5 December 2026: $15.00 Weekly (now $24.00 Weekly)",
    );
  });

  it("what is owed is the quoted total the retry takes, surcharge included, not the bare balance (item 10)", async () => {
    const sub = subscription({
      balance_owing: 2400,
      formatted_balance_owing: "$24.00",
      next_retry_on: "2026-11-26",
      next_charge: quote({
        kind: "balance_owing",
        title: "Payment owed",
        due_on: "2026-11-26",
        amount: 2400,
        formatted_amount: "$24.00",
        surcharge: 90,
        formatted_surcharge: "$0.90",
        total: 2490,
        formatted_total: "$24.90",
        balance_owing: 2400,
      }),
    });
    showMembership(sub);
    expect(await screen.findByTestId("next-payment")).toHaveTextContent(
      "$24.90 is owed ($24.00 and a $0.90 card surcharge); we will try again on 26 November 2026 from Visa •••• 4242.",
    );
  });
});

describe("end dates on the member's page: the last day, included, as emails and receipts say (issue 34 tour item 3)", () => {
  const render = (sub: ReturnType<typeof subscription>) => {
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
  };

  it("a period ending on 5 December (exclusive) is shown by its last day, 4 December", async () => {
    render(subscription({ current_period_end: "2026-12-04T11:00:00.000Z" }));
    expect(await screen.findByText("The last day of this period is 4 December 2026")).toBeInTheDocument();
    expect(screen.queryByText(/ends 5 December/)).not.toBeInTheDocument();
  });

  it("a cancellation taking effect on 5 December reads 'Last day 4 December 2026', not 'Cancelled'", async () => {
    render(
      subscription({
        is_cancelled: true,
        cancellation_taken_effect: false,
        cancelled_at: "2026-11-20T00:00:00.000Z",
        cancellation_effective_at: "2026-12-04T11:00:00.000Z",
      }),
    );
    expect(await screen.findByText("Last day 4 December 2026")).toBeInTheDocument();
    expect(screen.queryByText("Cancelled")).not.toBeInTheDocument();
  });

  it("a pay-in-full membership whose bank transfer has not arrived reads 'Awaiting transfer', not 'Active' (tour)", async () => {
    render(
      subscription({
        payment_method: "pif",
        is_active: false,
        is_awaiting_transfer: true,
        balance_owing: 29900,
        door_access: { standing: false, reason: "Pay-in-full payment not received" },
      }),
    );
    expect(await screen.findByText("Awaiting transfer")).toBeInTheDocument();
    expect(screen.queryByText("Active")).not.toBeInTheDocument();
    // "How you pay" must not read "Paid in full" before the money has arrived (hand tour).
    expect(screen.queryByText("Paid in full")).not.toBeInTheDocument();
    expect(screen.getByText("In full, by bank transfer (not yet received)")).toBeInTheDocument();
  });

  it("says where the awaited transfer goes and its reference, as the invitation email does (issue 35's leftover)", async () => {
    const sub = subscription({
      payment_method: "pif",
      is_active: false,
      is_awaiting_transfer: true,
      balance_owing: 29900,
      next_charge: { ...quote(), kind: "awaiting_transfer", formatted_total: "$299.00" },
    });
    mockFetch((call) => {
      if (call.url === "/api/me/active-subscription") return jsonResponse({ data: sub });
      if (call.url.startsWith("/api/me/registration"))
        return jsonResponse({
          data: {
            step: "welcome-to-gym",
            welcome: true,
            email: "pat@example.nz",
            gym: { id: "g-1", name: "Harbour Fitness Ponsonby", logo: null },
            register_fields: null,
            default_payment_type: null,
            bank_transfer: {
              account_name: "Harbour Fitness Ltd",
              account_number: "12-3140-0171323-50",
              reference: "Pat Payfull",
            },
          },
        });
      if (call.url.startsWith("/api/me")) return jsonResponse({ data: { id: "u-1", name: "Pat Payfull" } });
      return jsonResponse({ data: null });
    });
    renderWithProviders(
      <AuthProvider>
        <MembershipRoute />
      </AuthProvider>,
      { route: "/membership", path: "/membership", theme: touchTheme },
    );
    expect(
      await screen.findByText(
        'Pay it into Harbour Fitness Ltd, account 12-3140-0171323-50, with the reference "Pat Payfull".',
      ),
    ).toBeInTheDocument();
  });
});

describe("after the membership ended (tour: the page sent the member to /take-photo)", () => {
  it("shows the ended membership with its last day and a way to join again", async () => {
    const ended = subscription({
      is_cancelled: true,
      cancellation_taken_effect: true,
      is_active: false,
      cancelled_at: "2026-11-20T00:00:00.000Z",
      cancellation_effective_at: "2026-12-04T11:00:00.000Z", // 5 December, Auckland: last day 4 December
      // Its payments stay on the page with their receipts (before, only the emails' links opened them).
      payments: [paymentFixture("p-paid", { status: "sent", outcome: "successful", due_on: "2026-11-23" })],
    });
    mockFetch((call) => {
      if (call.url === "/api/me/active-subscription") return jsonResponse({ data: null });
      if (call.url.startsWith("/api/me/registration"))
        return jsonResponse({
          data: {
            step: "take-photo",
            welcome: false,
            email: "sam@example.nz",
            gym: { id: "g-1", name: "Harbour Fitness Ponsonby", logo: null },
            register_fields: null,
            default_payment_type: null,
            ended_subscription: ended,
          },
        });
      if (call.url.startsWith("/api/me")) return jsonResponse({ data: { id: "u-1", name: "Sam Member" } });
      return jsonResponse({ data: null });
    });
    renderWithProviders(
      <AuthProvider>
        <MembershipRoute />
      </AuthProvider>,
      { route: "/membership", path: "/membership", theme: touchTheme },
    );
    expect(
      await screen.findByText("Your membership ended. Its last day was 4 December 2026."),
    ).toBeInTheDocument();
    expect(screen.getByText("Ended")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Join again" })).toHaveAttribute("href", "/rejoin");
    expect(screen.queryByText("No membership")).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Receipt for 23 November 2026" })).toHaveAttribute(
      "href",
      "/membership/receipts/p-paid",
    );
  });
});
