import { touchTheme } from "@gym/web/app";
import { AuthProvider } from "@gym/web/auth";
import {
  jsonResponse,
  mockFetch,
  quoteFixture as quote,
  renderWithProviders,
  subscriptionFixture as subscription,
} from "@gym/web/testing";
import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MembershipRoute } from "./membership";

/**
 * `/membership` during a trial (docs/offers.md "Stopping during the trial"): when it ends, what is
 * taken after it, and "Stop my trial" (no staff), which replaces "Cancel my membership" meanwhile.
 */
afterEach(() => {
  vi.unstubAllGlobals();
});

const inTrial = subscription({
  trial: {
    ends_on: "2026-12-08",
    last_day: "2026-12-07",
    amount: 0,
    formatted_amount: "$0.00",
    in_trial: true,
  },
  next_charge: quote({ due_on: "2026-12-08", formatted_total: "$24.90" }),
});

describe("the member's trial", () => {
  it("says when the trial ends and what is taken after it, and stops it after asking", async () => {
    const { calls } = mockFetch((call) => {
      if (call.url === "/api/me/active-subscription") return jsonResponse({ data: inTrial });
      if (call.url === "/api/me/subscriptions/s-1/stop-trial") return jsonResponse({ data: inTrial });
      if (call.url.startsWith("/api/me")) return jsonResponse({ data: { id: "u-1", name: "Sam Member" } });
      return jsonResponse({ data: null });
    });
    const { user } = renderWithProviders(
      <AuthProvider>
        <MembershipRoute />
      </AuthProvider>,
      { route: "/membership", path: "/membership", theme: touchTheme },
    );
    expect(await screen.findByTestId("trial-ends")).toHaveTextContent(
      /last day is .*7 December 2026.*\$24\.90/,
    );
    expect(screen.queryByRole("region", { name: "Cancel my membership" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Stop my trial" }));
    expect(screen.getByText(/You pay\s+nothing more/)).toBeInTheDocument();
    expect(calls.some((c) => c.url.endsWith("/stop-trial"))).toBe(false);
    await user.click(screen.getByRole("button", { name: "Stop my trial" }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === "POST" && c.url.endsWith("/stop-trial"))).toBe(true),
    );
  });

  it("after the trial, there is no trial panel and cancelling is offered as usual", async () => {
    const after = subscription({ trial: { ...inTrial.trial!, in_trial: false } });
    mockFetch((call) => {
      if (call.url === "/api/me/active-subscription") return jsonResponse({ data: after });
      if (call.url.startsWith("/api/me")) return jsonResponse({ data: { id: "u-1", name: "Sam Member" } });
      return jsonResponse({ data: null });
    });
    renderWithProviders(
      <AuthProvider>
        <MembershipRoute />
      </AuthProvider>,
      { route: "/membership", path: "/membership", theme: touchTheme },
    );
    expect(await screen.findByRole("heading", { name: "Cancel my membership" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Stop my trial" })).not.toBeInTheDocument();
  });
});
