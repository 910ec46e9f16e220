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

function renderConfirm(answer: () => Response, shown: RegistrationState = state) {
  const api = mockFetch((call) => {
    if (call.url === "/api/subscriptions" && call.method === "POST") return answer();
    if (call.url.startsWith("/api/me/registration")) return jsonResponse({ data: shown });
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

describe("the confirm page", () => {
  it("moves on to the welcome page when the membership already exists (409 subscription_exists, a second tap)", async () => {
    const { user, api } = renderConfirm(() =>
      jsonResponse(
        {
          message: "This member already has a membership.",
          error: "subscription_exists",
          data: { id: "s1" },
        },
        409,
      ),
    );
    await user.click(await screen.findByRole("checkbox", { name: /membership terms and conditions/ }));
    await user.click(screen.getByRole("button", { name: "Confirm membership" }));
    expect(await screen.findByText("welcome page")).toBeInTheDocument();
    expect(api.calls.filter((c) => c.url === "/api/subscriptions")).toHaveLength(1);
    expect(screen.queryByText("Your membership is not confirmed")).not.toBeInTheDocument();
  });

  it("shows any other refusal as an error and stays", async () => {
    const { user } = renderConfirm(() =>
      jsonResponse(
        { message: "The membership could not be created. Please try again.", error: "conflict" },
        409,
      ),
    );
    await user.click(await screen.findByRole("checkbox", { name: /membership terms and conditions/ }));
    await user.click(screen.getByRole("button", { name: "Confirm membership" }));
    await waitFor(() => expect(screen.getByText("Your membership is not confirmed")).toBeInTheDocument());
    expect(screen.queryByText("welcome page")).not.toBeInTheDocument();
  });

  it("links the gym's terms and conditions in a new tab when the organisation set them", async () => {
    renderConfirm(() => jsonResponse({ data: null }), {
      ...state,
      terms_url: "https://harbour.example/terms",
    });
    const link = await screen.findByRole("link", {
      name: /Harbour Fitness Ponsonby's membership terms and conditions/,
    });
    expect(link).toHaveAttribute("href", "https://harbour.example/terms");
    expect(link).toHaveAttribute("target", "_blank");
    expect(link).toHaveAttribute("rel", "noopener noreferrer");
    expect(screen.getByRole("checkbox", { name: /membership terms and conditions/ })).toBeInTheDocument();
  });

  it("says plainly what the member agrees to when no terms are online (no dead link)", async () => {
    renderConfirm(() => jsonResponse({ data: null }), { ...state, terms_url: null });
    await screen.findByRole("checkbox", { name: /membership terms and conditions/ });
    expect(screen.queryByRole("link", { name: /terms and conditions/ })).not.toBeInTheDocument();
    expect(
      screen.getByText(/has not put its terms online\. You agree to this membership, its payments and dates/),
    ).toBeInTheDocument();
  });

  it("says what to do when the terms or the direct-debit authority are not ticked", async () => {
    const bank = {
      ...state,
      default_payment_type: { id: "pt2", type: "bank_account", account_number: "12-3456-0001234-00" },
    } as unknown as RegistrationState;
    const { user, api } = renderConfirm(() => jsonResponse({ data: null }), bank);
    await user.click(await screen.findByRole("button", { name: "Confirm membership" }));
    expect(await screen.findByText("Please accept the terms to continue")).toBeInTheDocument();
    expect(screen.getByText("Please authorise the direct debit to continue")).toBeInTheDocument();
    expect(screen.queryByText("Value is required")).not.toBeInTheDocument();
    expect(api.calls.filter((c) => c.url === "/api/subscriptions")).toHaveLength(0);
  });

  it("asks for marketing consent off by default, apart from the payment reminders", async () => {
    const { user } = renderConfirm(() => jsonResponse({ data: null }), {
      ...state,
      register_fields: {
        email_notifications_enabled: true,
        payment_reminders: true,
        marketing_emails: false,
      },
    } as unknown as RegistrationState);
    await user.click(await screen.findByRole("button", { name: "About you (optional)" }));
    expect(
      await screen.findByRole("switch", { name: /Email me the gym's news and offers/ }),
    ).not.toBeChecked();
    expect(screen.getByRole("switch", { name: /Remind me before payments/ })).toBeChecked();
  });
});
