import { touchTheme } from "@gym/web/app";
import { AuthProvider } from "@gym/web/auth";
import {
  jsonResponse,
  mockFetch,
  renderWithProviders,
  subscriptionFixture as subscription,
} from "@gym/web/testing";
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MembershipRoute } from "./membership";

/** `/membership` with a visit pass (docs/offers.md "Visit passes"): the visits left and the pass's last day. */
afterEach(() => {
  vi.unstubAllGlobals();
});

const withPass = (pass: NonNullable<ReturnType<typeof subscription>["pass"]>) => {
  const sub = subscription({ payment_method: "pif", pif_ends_at: "2027-03-01T11:00:00.000Z", pass });
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

describe("the member's visit pass", () => {
  it("shows the visits left and the pass's last day", async () => {
    withPass({
      visits: 10,
      used: 3,
      left: 7,
      last_visit_on: "2026-12-05",
      last_day: "2027-03-01",
      door: true,
      reason: "7 of 10 visits left",
    });
    expect(await screen.findByTestId("pass-visits")).toHaveTextContent(
      /7 of 10 visits left, until .*1 March 2027/,
    );
    expect(screen.queryByText("7 of 10 visits left")).not.toBeInTheDocument();
  });

  it("says why the door no longer opens when none is left", async () => {
    withPass({
      visits: 10,
      used: 10,
      left: 0,
      last_visit_on: "2026-12-21",
      last_day: "2027-03-01",
      door: false,
      reason: "No visits left on the pass",
    });
    expect(await screen.findByText("No visits left on the pass")).toBeInTheDocument();
  });
});
