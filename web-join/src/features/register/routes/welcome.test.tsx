import type { RegistrationState } from "@gym/core/contract/registration";
import { touchTheme } from "@gym/web/app";
import {
  jsonResponse,
  mockFetch,
  quoteFixture as quote,
  renderWithProviders,
  subscriptionFixture as subscription,
} from "@gym/web/testing";
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WelcomeRoute } from "./welcome";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the welcome page of a pay-in-full member paying by bank transfer (issue 34 item 6)", () => {
  it("says the $299.00 transfer is awaited, never that a payment was declined", async () => {
    const transfer = {
      id: "pay-1",
      amount: 29_900,
      total: 29_900,
      status: "awaiting_payment",
      due_on: "2026-11-24",
      credit_used: 0,
    };
    const sub = subscription({
      payment_method: "pif",
      balance_owing: 29_900,
      formatted_balance_owing: "$299.00",
      first_payment: transfer as never,
      latest_payment: transfer as never,
      next_charge: quote({
        kind: "awaiting_transfer",
        title: "Awaiting bank transfer",
        amount: 29_900,
        surcharge: 0,
        total: 29_900,
        formatted_total: "$299.00",
        payment_method: { type: "bank_transfer", label: "Bank transfer" },
      }),
    });
    const state = {
      step: "welcome-to-gym",
      welcome: true,
      welcome_emailed: false,
      name: "pat payfull",
      gym: {
        id: "g-ponsonby",
        uuid: "u",
        name: "Harbour Fitness Ponsonby",
        logo: null,
        has_door_access: true,
      },
      price: null,
      today: "2026-11-24",
      payment_failed: false,
      reauthenticate_akahu: false,
      subscription: sub,
      bank_transfer: {
        account_name: "Harbour Fitness Ltd",
        account_number: "12-3140-0171323-50",
        reference: "Pat Payfull",
      },
    } as unknown as RegistrationState;
    mockFetch((call) =>
      call.url.startsWith("/api/me/registration")
        ? jsonResponse({ data: state })
        : jsonResponse({ data: null }),
    );
    renderWithProviders(<WelcomeRoute />, { route: "/welcome-to-gym", theme: touchTheme });
    const awaiting = await screen.findByTestId("awaiting-transfer");
    expect(awaiting).toHaveTextContent("We are waiting for your bank transfer of $299.00.");
    // Where to pay it, as the email says.
    expect(awaiting).toHaveTextContent(
      'Pay it into Harbour Fitness Ltd, account 12-3140-0171323-50, with the reference "Pat Payfull".',
    );
    expect(screen.queryByText(/declined/)).not.toBeInTheDocument();
    expect(screen.queryByText("Your payment did not go through")).not.toBeInTheDocument();
  });
});

describe("the welcome page of a member in a free trial (issue 38)", () => {
  it("names the trial and its last day, not a first payment of $0.00", async () => {
    const trialPayment = {
      id: "pay-0",
      amount: 0,
      total: 0,
      status: "sent",
      due_on: "2026-11-28",
      credit_used: 0,
    };
    const sub = subscription({
      first_payment: trialPayment as never,
      latest_payment: trialPayment as never,
      trial: { ends_on: "2026-12-05", last_day: "2026-12-04", amount: 0, in_trial: true } as never,
    });
    const state = {
      step: "welcome-to-gym",
      welcome: true,
      welcome_emailed: true,
      name: "aroha te whare",
      gym: { id: "g", uuid: "u", name: "Harbour Fitness Ponsonby", logo: null, has_door_access: true },
      price: null,
      today: "2026-11-28",
      payment_failed: false,
      reauthenticate_akahu: false,
      subscription: sub,
      bank_transfer: null,
    } as unknown as RegistrationState;
    mockFetch((call) =>
      call.url.startsWith("/api/me/registration")
        ? jsonResponse({ data: state })
        : jsonResponse({ data: null }),
    );
    renderWithProviders(<WelcomeRoute />, { route: "/welcome-to-gym", theme: touchTheme });
    expect(await screen.findByTestId("welcome-trial")).toHaveTextContent("Free trial until 4 December 2026.");
    expect(screen.queryByText(/First payment \$0\.00/)).not.toBeInTheDocument();
  });
});
