import { renderWithProviders } from "@gym/web/testing";
import { screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { StripeCardElement } from "./StripeCardElement";

const stripe = vi.hoisted(() => {
  const mount = vi.fn();
  const create = vi.fn(() => ({ mount }));
  const elements = vi.fn(() => ({ create }));
  const confirmSetup = vi.fn();
  const loadStripe = vi.fn(async () => ({ elements, confirmSetup }));
  return { mount, create, elements, confirmSetup, loadStripe };
});
vi.mock("@stripe/stripe-js", () => ({ loadStripe: stripe.loadStripe }));

const setup = {
  setup_intent_id: "seti_1",
  client_secret: "seti_1_secret_x",
  stripe_account: "acct_gym",
  form_url: null,
  publishable_key: "pk_live_123",
};

beforeEach(() => vi.clearAllMocks());

describe("Stripe's card element (AWS)", () => {
  it("loads Stripe.js with the configured key on the gym's account and mounts the card element", async () => {
    renderWithProviders(<StripeCardElement setup={setup} />);
    await waitFor(() => expect(stripe.mount).toHaveBeenCalled());
    expect(stripe.loadStripe).toHaveBeenCalledWith("pk_live_123", { stripeAccount: "acct_gym" });
    expect(stripe.elements).toHaveBeenCalledWith({ clientSecret: "seti_1_secret_x" });
    expect(stripe.create).toHaveBeenCalledWith("payment", { paymentMethodOrder: ["card"] });
    expect(stripe.mount.mock.calls[0][0]).toBe(screen.getByRole("group", { name: "Card details" }));
  });

  it("confirms the SetupIntent with Stripe, returning to /card-details; a refusal shows under the form", async () => {
    stripe.confirmSetup.mockResolvedValue({ error: { message: "Your card number is incomplete." } });
    const { user } = renderWithProviders(<StripeCardElement setup={setup} />);
    const save = screen.getByRole("button", { name: "Save card" });
    await waitFor(() => expect(save).toBeEnabled());
    await user.click(save);
    expect(stripe.confirmSetup).toHaveBeenCalledWith(
      expect.objectContaining({
        confirmParams: { return_url: `${window.location.origin}/card-details` },
      }),
    );
    expect(await screen.findByText("Your card number is incomplete.")).toBeInTheDocument();
  });
});
