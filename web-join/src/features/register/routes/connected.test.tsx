import type { RegistrationState } from "@gym/core/contract/registration";
import { touchTheme } from "@gym/web/app";
import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConnectedRoute } from "./connected";

const card = { id: "pt2", type: "stripe_card", card_type: "visa", last_four: "4242", status: "active" };

const state = (over: Partial<RegistrationState> = {}) =>
  ({
    step: "welcome-to-gym",
    welcome: true,
    name: "aroha te whare",
    gym: { uuid: "gym-uuid-1", name: "Harbour Fitness Ponsonby", logo: null },
    default_payment_type: card,
    payment_types: [card],
    payment_failed: false,
    subscription: { balance_owing: 0, latest_payment: null },
    ...over,
  }) as unknown as RegistrationState;

function renderConnected(shown: RegistrationState, owed?: number) {
  mockFetch((call) =>
    call.url.startsWith("/api/me/registration")
      ? jsonResponse({ data: shown })
      : jsonResponse({ data: null }),
  );
  const view = renderWithProviders(<ConnectedRoute />, {
    route: "/card-connected",
    theme: touchTheme,
    routes: [
      { path: "/membership", element: <p>membership page</p> },
      { path: "/confirm-subscription", element: <p>confirm page</p> },
    ],
  });
  if (owed !== undefined) void view.router.navigate("/card-connected", { replace: true, state: { owed } });
  return view;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the card-connected page", () => {
  it("tells a member who replaced a declined card that the card changed and the owed amount was paid", async () => {
    const { user } = renderConnected(state(), 4872);
    expect(await screen.findByRole("heading", { level: 1, name: "Card changed" })).toBeInTheDocument();
    expect(screen.getByText(/Visa/)).toBeInTheDocument();
    expect(await screen.findByText("The $48.72 you owed has been paid with this card.")).toBeInTheDocument();
    // Subscribed: nothing left to continue to; back to their membership.
    expect(screen.queryByRole("button", { name: "Continue" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("link", { name: "Back to my membership" }));
    expect(await screen.findByText("membership page")).toBeInTheDocument();
  });

  it("says when the owed amount is still unpaid with the new card", async () => {
    renderConnected(
      state({
        payment_failed: true,
        subscription: {
          balance_owing: 4872,
          latest_payment: { total: 4872, status: "failed", error_description: "Your card was declined." },
        } as unknown as RegistrationState["subscription"],
      }),
      4872,
    );
    expect(await screen.findByRole("heading", { level: 1, name: "Card changed" })).toBeInTheDocument();
    expect(screen.getByText(/\$48\.72 is still owed/)).toBeInTheDocument();
    expect(screen.getByText(/Your card was declined\./)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Continue" })).not.toBeInTheDocument();
  });

  it("moves a member still joining on to confirming", async () => {
    const { user } = renderConnected(
      state({ welcome: false, step: "confirm-subscription", subscription: null }),
    );
    expect(await screen.findByRole("heading", { level: 1, name: "Card connected" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText("confirm page")).toBeInTheDocument();
  });
});
