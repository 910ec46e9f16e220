/**
 * The confirm page with a trial (docs/offers.md "Trials", "On the join site"): before the member
 * confirms, the trial and its end, then the first full charge with its date, all-in.
 */
import type { ProRata } from "@gym/core/contract/price";
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
    label: "$24.00 Weekly",
    amount: 2_400,
    formatted_amount: "$24.00",
    billing_frequency: "weekly",
    frequency_label: "Weekly",
    joining_fee: null,
    formatted_joining_fee: null,
    trial_days: 7,
    trial_amount: 0,
    formatted_trial: "7-day free trial",
    offering: { id: "o1", name: "Anytime" },
  },
  start_date: "2030-01-10",
  billing_date: "2030-01-10",
  default_payment_type: { id: "pt1", type: "stripe_card", card_type: "visa", last_four: "4242" },
  register_fields: { email_notifications_enabled: true, payment_reminders: true },
} as unknown as RegistrationState;

/** The price's quote with a 7-day free trial: the first paid charge on the 17th. */
const quote = {
  price_id: "p1",
  is_pro_rata: false,
  pro_rata_days: 0,
  pro_rata_amount: 2_400,
  joining_fee: 0,
  first_payment_date: "2030-01-17",
  first_payment_total: 2_400,
  first_full_payment_date: "2030-01-17",
  second_payment_date: "2030-01-24",
  recurring_amount: 2_400,
  formatted_pro_rata_amount: "$24.00",
  formatted_recurring_amount: "$24.00",
  card_surcharge: 90,
  trial: {
    days: 7,
    amount: 0,
    formatted_amount: "$0.00",
    card_surcharge: 0,
    ends_on: "2030-01-17",
    last_day: "2030-01-16",
  },
} as unknown as ProRata;

function renderConfirm(withState = state, withQuote = quote) {
  mockFetch((call) => {
    if (call.url.startsWith("/api/me/registration")) return jsonResponse({ data: withState });
    if (call.url === "/api/prices/p1/pro-rata") return jsonResponse({ data: withQuote });
    if (call.url.startsWith("/api/surcharge-total"))
      return jsonResponse({
        data: { amount: 2_400, surcharge: 90, total: 2_490, formatted_total: "$24.90" },
      });
    return jsonResponse({ data: null });
  });
  return renderWithProviders(<ConfirmSubscriptionRoute />, {
    route: "/confirm-subscription",
    theme: touchTheme,
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the confirm page with a trial", () => {
  it("shows the free trial and its end, then the first full charge with its date, all-in", async () => {
    renderConfirm();
    expect(await screen.findByText("7-day free trial")).toBeInTheDocument();
    expect(screen.getByTestId("trial-summary")).toHaveTextContent(
      "Nothing to pay for your 7-day trial. Stop it before",
    );
    expect(screen.getByText("First payment after your trial")).toBeInTheDocument();
    // $24.00 + the card's 90¢ on the day after the trial, then every week.
    expect(screen.getByTestId("payment-dates")).toHaveTextContent(/First payment \$24\.90 on .*17/);
    expect(screen.getByTestId("payment-dates")).toHaveTextContent(/then \$24\.90 every week from .*24/);
    // The lines add up to the total: the period, then the card surcharge.
    expect(screen.getByText("First period").nextSibling).toHaveTextContent("$24.00");
  });

  it("words a trial that costs as the plan list does: one wording of the price's trial", async () => {
    const cheap = { trial_days: 14, trial_amount: 1_000, formatted_trial: "14-day trial for $10.00" };
    renderConfirm(
      { ...state, price: { ...state.price!, ...cheap } } as RegistrationState,
      {
        ...quote,
        trial: { ...quote.trial!, days: 14, amount: 1_000, formatted_amount: "$10.00", card_surcharge: 55 },
      } as ProRata,
    );
    expect(await screen.findByText("14-day trial for $10.00")).toBeInTheDocument();
    // All-in today: the trial's $10.00 and the card's 55¢.
    expect(screen.getByTestId("trial-summary")).toHaveTextContent("$10.55 today for your 14-day trial.");
  });
});
