import type { JoinOptions, RegistrationState } from "@gym/core/contract/registration";
import { touchTheme } from "@gym/web/app";
import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RejoinRoute } from "./rejoin";

const price = {
  id: "p2",
  label: "$30.00 Weekly",
  amount: 3000,
  formatted_amount: "$30.00",
  billing_frequency: "weekly",
  frequency_label: "Weekly",
  joining_fee: null,
  formatted_joining_fee: null,
  membership_type: "Flexi",
  formatted_term: null,
  private: false,
};

const options: JoinOptions = {
  gym: { uuid: "gym-uuid-1", name: "Harbour Fitness Ponsonby", logo: null },
  organisation: { name: "Harbour Fitness" },
  gyms: [],
  offerings: [
    {
      id: "o1",
      name: "Anytime Membership",
      description: null,
      type_label: "24/7",
      prices: [
        { ...price, id: "p1", label: "$24.00 Weekly", amount: 2400, formatted_amount: "$24.00" },
        price,
      ],
    },
  ],
  selected_price_id: null,
  min_age: 16,
  age_bypass: false,
  takes_cards: true,
  takes_bank: true,
  today: "2030-01-01",
  terms_url: null,
} as unknown as JoinOptions;

const state = (returning: boolean) =>
  ({
    step: "confirm-subscription",
    welcome: false,
    name: "aroha te whare",
    gym: { uuid: "gym-uuid-1", name: "Harbour Fitness Ponsonby", logo: null },
    price: { ...price, offering: { id: "o1", name: "Anytime Membership" } },
    price_link: null,
    start_date: "2030-01-15",
    is_returning_member: returning,
    choice_needed: false,
  }) as unknown as RegistrationState;

function renderRejoin(shown: RegistrationState) {
  mockFetch((call) => {
    if (call.url.startsWith("/api/me/registration")) return jsonResponse({ data: shown });
    if (call.url.startsWith("/api/join")) return jsonResponse({ data: options });
    return jsonResponse({ data: null });
  });
  return renderWithProviders(<RejoinRoute />, { route: "/rejoin", theme: touchTheme });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("choosing the membership again", () => {
  it("lets a first-time joiner change their choice without welcoming them back, their choice still selected", async () => {
    renderRejoin(state(false));
    expect(
      await screen.findByRole("heading", { level: 1, name: "Change your membership" }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Welcome back/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Your account, photo and payment details are kept/)).not.toBeInTheDocument();
    expect(screen.getByRole("radio", { name: /Anytime Membership: \$30\.00 Weekly/ })).toBeChecked();
    expect(screen.getByRole("radio", { name: /Anytime Membership: \$24\.00 Weekly/ })).not.toBeChecked();
    // Day first, in the UI kit's date input (issue 35).
    expect(screen.getByLabelText(/^Start date/)).toHaveValue("15/01/2030");
    expect(document.querySelector('input[type="date"]')).toBeNull();
  });

  it("welcomes a past member back", async () => {
    renderRejoin({ ...state(true), price: null, start_date: null });
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome back, Aroha" })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Start date/)).toHaveValue("1/01/2030");
  });
});
