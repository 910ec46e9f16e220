/**
 * The confirm page's promo code (docs/offers.md "When a code may be used"): checked as typed, the
 * reason shown under the field when it cannot be used; once accepted, its discount is a line and the
 * total is the first payment with it, all-in; the code is sent with the confirmation.
 */
import type { RegistrationState } from "@gym/core/contract/registration";
import { touchTheme } from "@gym/web/app";
import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfirmSubscriptionRoute } from "./confirm-subscription";

const state = {
  step: "confirm-subscription",
  welcome: false,
  name: "aroha te whare",
  gym: { uuid: "gym-uuid-1", name: "Harbour Fitness Ponsonby", logo: null },
  price: {
    id: "p1",
    label: "$300.00 PIF",
    amount: 30_000,
    formatted_amount: "$300.00",
    billing_frequency: "one_off",
    frequency_label: "PIF",
    joining_fee: null,
    formatted_joining_fee: null,
    offering: { id: "o1", name: "Summer Pass" },
  },
  start_date: "2030-01-10",
  billing_date: "2030-01-10",
  default_payment_type: { id: "pt1", type: "stripe_card", card_type: "visa", last_four: "4242" },
  register_fields: { email_notifications_enabled: true, payment_reminders: true },
} as unknown as RegistrationState;

const accepted = {
  code: "HALF",
  summary: "50% off the first period",
  price_id: "p1",
  amount: 30_000,
  discount: 15_000,
  surcharge: 300,
  total: 15_300,
  formatted_amount: "$300.00",
  formatted_discount: "$150.00",
  formatted_surcharge: "$3.00",
  formatted_total: "$153.00",
  payment_type: "stripe_card",
  periods: 1,
  first_payment: {
    due_on: "2030-01-10",
    amount: 15_000,
    discount: 15_000,
    surcharge: 300,
    total: 15_300,
    formatted_discount: "$150.00",
    formatted_total: "$153.00",
  },
};

function renderConfirm() {
  const api = mockFetch((call) => {
    if (call.url === "/api/subscriptions" && call.method === "POST")
      return jsonResponse({ data: { id: "s1" } }, 201);
    if (call.url.startsWith("/api/me/registration")) return jsonResponse({ data: state });
    if (call.url.startsWith("/api/promo-codes/check")) {
      return call.url.includes("code=HALF")
        ? jsonResponse({ data: accepted })
        : jsonResponse(
            { message: "This code has expired", errors: { code: ["This code has expired"] } },
            422,
          );
    }
    if (call.url.startsWith("/api/surcharge-total"))
      return jsonResponse({
        data: { amount: 30_000, surcharge: 0, total: 30_000, formatted_total: "$300.00" },
      });
    return jsonResponse({ data: null });
  });
  const view = renderWithProviders(<ConfirmSubscriptionRoute />, {
    route: "/confirm-subscription",
    theme: touchTheme,
    routes: [{ path: "/welcome-to-gym", element: <p>welcome page</p> }],
  });
  return { ...view, api };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the confirm page's promo code", () => {
  it("shows why a code cannot be used, and does not confirm with it", async () => {
    const { user, api } = renderConfirm();
    await user.type(await screen.findByRole("textbox", { name: /Promo code/ }), "OLD");
    // The check waits for typing to pause (400 ms): allow for a loaded machine.
    expect(await screen.findByText("This code has expired", {}, { timeout: 5_000 })).toBeInTheDocument();
    await user.click(screen.getByRole("checkbox", { name: /membership terms and conditions/ }));
    await user.click(screen.getByRole("button", { name: "Confirm membership" }));
    expect(
      await screen.findByText("Check your promo code, or clear it to join without it."),
    ).toBeInTheDocument();
    expect(api.calls.filter((c) => c.url === "/api/subscriptions")).toHaveLength(0);
  });

  it("shows the discount as a line and the new total all-in, then confirms with the code", async () => {
    const { user, api } = renderConfirm();
    await user.type(await screen.findByRole("textbox", { name: /Promo code/ }), "HALF");
    expect(
      await screen.findByText("Promo code HALF (50% off the first period)", {}, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(screen.getByText("-$150.00")).toBeInTheDocument();
    expect(screen.getByText("$153.00")).toBeInTheDocument();
    await user.click(screen.getByRole("checkbox", { name: /membership terms and conditions/ }));
    await user.click(screen.getByRole("button", { name: "Confirm membership" }));
    await waitFor(() => expect(screen.getByText("welcome page")).toBeInTheDocument());
    const sent = api.calls.find((c) => c.url === "/api/subscriptions");
    expect(sent?.body).toEqual({ promo_code: "HALF" });
  });
});
