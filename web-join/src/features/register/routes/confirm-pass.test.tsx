/**
 * The confirm page for a visit pass (docs/offers.md "Visit passes", "Screens"): a pass is worded as
 * a pass, its visits, its days and its one payment, never as a membership term or a schedule.
 */
import type { RegistrationState } from "@gym/core/contract/registration";
import { touchTheme } from "@gym/web/app";
import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfirmSubscriptionRoute } from "./confirm-subscription";

const state = {
  step: "confirm-subscription",
  welcome: false,
  name: "aroha te whare",
  today: "2030-01-10",
  gym: { uuid: "gym-uuid-1", name: "Harbour Fitness Ponsonby", logo: null },
  price: {
    id: "p1",
    label: "$120.00 Visit pass · 10 visits",
    amount: 12_000,
    formatted_amount: "$120.00",
    billing_frequency: "one_off",
    frequency_label: "PIF",
    joining_fee: null,
    formatted_joining_fee: null,
    membership_type: "PIF",
    formatted_term: null,
    private: false,
    kind: "pass",
    visits: 10,
    valid_days: 90,
    formatted_pass: "10 visits, valid 90 days, $120.00 paid once",
    offering: { id: "o1", name: "Summer Pass" },
  },
  start_date: "2030-01-10",
  billing_date: "2030-01-10",
  default_payment_type: { id: "pt1", type: "stripe_card", card_type: "visa", last_four: "4242" },
  register_fields: { email_notifications_enabled: true, payment_reminders: true },
} as unknown as RegistrationState;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the confirm page for a visit pass", () => {
  it("words it as a pass: its visits and days, valid from and until, paid once", async () => {
    mockFetch((call) => {
      if (call.url.startsWith("/api/me/registration")) return jsonResponse({ data: state });
      // The card's surcharge on the one payment (2.75 %): the server's figure, asked for that amount.
      if (call.url.startsWith("/api/surcharge-total?amount=12000&payment_type_id=pt1"))
        return jsonResponse({
          data: {
            amount: 12_000,
            surcharge: 330,
            total: 12_330,
            formatted_amount: "$120.00",
            formatted_surcharge: "$3.30",
            formatted_total: "$123.30",
            payment_type: "stripe_card",
          },
        });
      return jsonResponse({ data: null });
    });
    renderWithProviders(<ConfirmSubscriptionRoute />, { route: "/confirm-subscription", theme: touchTheme });
    expect(await screen.findByTestId("pass-summary")).toHaveTextContent(
      "Visit pass: 10 visits, valid 90 days, $120.00 paid once",
    );
    expect(screen.getByText("Valid from")).toBeInTheDocument();
    // 90 days from 10 January: the last valid day is 9 April.
    expect(screen.getByText("Valid until")).toBeInTheDocument();
    expect(screen.getByText(/9 April 2030/)).toBeInTheDocument();
    // Paid by card: the total the member agrees to is what the card is charged, surcharge included
    // (the hand tour saw "Total $120.00" on this page and $123.30 taken).
    expect(await screen.findByTestId("payment-dates")).toHaveTextContent(
      /Payment \$123\.30 today, .*paid once: 10 visits, no further payments\./,
    );
    expect(screen.getByText("Card surcharge").nextSibling).toHaveTextContent("$3.30");
    expect(screen.getByText("Total").nextSibling).toHaveTextContent("$123.30");
    expect(screen.queryByText("$120.00 Visit pass · 10 visits")).not.toBeInTheDocument();
    expect(screen.queryByText("Membership")).not.toBeInTheDocument();
    expect(screen.queryByText("First payment")).not.toBeInTheDocument();
  });
});
