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

/** `shown`: the registration as the API answers it, or one answer after another (the last repeats). */
function renderConnected(shown: RegistrationState | RegistrationState[], owed?: number, declined?: string) {
  const answers = Array.isArray(shown) ? [...shown] : [shown];
  mockFetch((call) =>
    call.url.startsWith("/api/me/registration")
      ? jsonResponse({ data: answers.length > 1 ? answers.shift() : answers[0] })
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
  if (owed !== undefined)
    void view.router.navigate("/card-connected", {
      replace: true,
      state: { owed, ...(declined ? { payment_id: declined } : {}) },
    });
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

  // The owed amount is retried with the new card by a reaction to the change, a moment after the
  // card is saved: the page's first answer can still show the declined payment as the latest.
  it("does not say the amount is still owed before the new card was tried, and says when it has paid", async () => {
    const declined = {
      id: "pay-declined",
      total: 4872,
      status: "failed",
      error_description: "Your card was declined.",
    };
    const owing = { balance_owing: 4872, latest_payment: declined };
    renderConnected(
      [
        state({ payment_failed: true, subscription: owing as unknown as RegistrationState["subscription"] }),
        state({
          payment_failed: true,
          subscription: {
            balance_owing: 4872,
            latest_payment: { id: "pay-retry", total: 4872, status: "pending_request", is_retry: true },
          } as unknown as RegistrationState["subscription"],
        }),
        state({
          subscription: {
            balance_owing: 0,
            latest_payment: { id: "pay-retry", total: 4872, status: "paid", is_retry: true },
          } as unknown as RegistrationState["subscription"],
        }),
      ],
      4872,
      "pay-declined",
    );
    expect(
      await screen.findByText("The $48.72 you owed has been paid with this card.", undefined, {
        timeout: 8_000,
      }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/is still owed/)).not.toBeInTheDocument();
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
