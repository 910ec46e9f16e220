/**
 * The plan list words a visit pass as a pass and a price's trial where the member chooses
 * (docs/offers.md "Visit passes" and "Trials", "Screens"), in the app and in index.html's early
 * copy of the form (public/register-shell.js) alike: the app carries the shell's choice over by
 * its card's name (src/main.tsx), so the two must name each card the same.
 */
import type { JoinOptions } from "@gym/core/contract/registration";
import { touchTheme } from "@gym/web/app";
import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import shellScript from "../../../../public/register-shell.js?raw";
import { MembershipChoice } from "./MembershipChoice";

const base = {
  joining_fee: null,
  formatted_joining_fee: null,
  formatted_term: null,
  private: false,
  trial_days: null,
  trial_amount: null,
  formatted_trial: null,
};
const offerings = [
  {
    id: "o1",
    name: "Summer Pass",
    description: null,
    type_label: "24/7",
    prices: [
      {
        ...base,
        id: "pass",
        label: "$120.00 Visit pass · 10 visits",
        amount: 12_000,
        formatted_amount: "$120.00",
        billing_frequency: "one_off",
        frequency_label: "PIF",
        membership_type: "PIF",
        kind: "pass",
        visits: 10,
        valid_days: 90,
        formatted_pass: "10 visits, valid 90 days, $120.00 paid once",
      },
      {
        ...base,
        id: "weekly",
        label: "$24.00 Weekly",
        amount: 2_400,
        formatted_amount: "$24.00",
        billing_frequency: "weekly",
        frequency_label: "Weekly",
        membership_type: "Flexi",
        kind: "recurring",
        visits: null,
        valid_days: null,
        formatted_pass: null,
      },
    ],
  },
  {
    id: "o2",
    name: "Anytime",
    description: null,
    type_label: "24/7",
    prices: [
      {
        ...base,
        id: "free-trial",
        label: "$24.00 Weekly",
        amount: 2_400,
        formatted_amount: "$24.00",
        billing_frequency: "weekly",
        frequency_label: "Weekly",
        membership_type: "Flexi",
        kind: "recurring",
        visits: null,
        valid_days: null,
        formatted_pass: null,
        trial_days: 7,
        trial_amount: 0,
        formatted_trial: "7-day free trial",
      },
      {
        ...base,
        id: "cheap-trial",
        label: "$60.00 Monthly",
        amount: 6_000,
        formatted_amount: "$60.00",
        billing_frequency: "monthly",
        frequency_label: "Monthly",
        membership_type: "Flexi",
        joining_fee: 2_000,
        formatted_joining_fee: "$20.00",
        kind: "recurring",
        visits: null,
        valid_days: null,
        formatted_pass: null,
        trial_days: 14,
        trial_amount: 1_000,
        formatted_trial: "14-day trial for $10.00",
      },
    ],
  },
] as unknown as JoinOptions["offerings"];

describe("the plan list", () => {
  it("words a pass by its visits, days and one payment, and other prices as before", () => {
    renderWithProviders(<MembershipChoice offerings={offerings} />, { theme: touchTheme });
    expect(
      screen.getByRole("radio", { name: "Summer Pass: 10 visits, valid 90 days, $120.00 paid once" }),
    ).toBeInTheDocument();
    expect(screen.getByText("Visit pass")).toBeInTheDocument();
    expect(screen.queryByText("$120.00 Visit pass · 10 visits")).not.toBeInTheDocument();
    expect(screen.queryByText("PIF")).not.toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Summer Pass: $24.00 Weekly" })).toBeInTheDocument();
    expect(screen.getAllByText("Flexi")).not.toHaveLength(0);
  });

  it("says a price's trial where the member chooses: the trial, then the price", () => {
    renderWithProviders(<MembershipChoice offerings={offerings} />, { theme: touchTheme });
    expect(
      screen.getByRole("radio", { name: "Anytime: 7-day free trial, then $24.00 Weekly" }),
    ).toBeInTheDocument();
    expect(screen.getByText("7-day free trial, then $24.00 Weekly")).toBeInTheDocument();
    expect(
      screen.getByRole("radio", { name: "Anytime: 14-day trial for $10.00, then $60.00 Monthly" }),
    ).toBeInTheDocument();
    expect(screen.getByText("Flexi · $20.00 joining fee")).toBeInTheDocument();
  });
});

/** The early form as index.html has it, drawn by register-shell.js from `GET /api/join`'s answer. */
async function drawShell(): Promise<HTMLFormElement> {
  document.body.innerHTML = `<div data-shell><span class="shell-word">Join</span>
    <form aria-label="Create your account" data-shell-form hidden>
      <fieldset data-shell-offer></fieldset><input data-date="start" /><button type="button">Create account</button>
    </form></div>`;
  window.history.replaceState(null, "", "/?gym=gym-uuid-1");
  mockFetch((call) =>
    call.url.startsWith("/api/join")
      ? jsonResponse({
          data: {
            offerings,
            gym: { name: "Harbour Fitness Ponsonby" },
            selected_price_id: null,
            today: "2030-01-10",
          },
        })
      : jsonResponse({ data: null }),
  );
  new Function(shellScript)();
  const form = document.querySelector<HTMLFormElement>("[data-shell-form]")!;
  await waitFor(() => expect(form.hidden).toBe(false));
  return form;
}

afterEach(() => {
  document.body.innerHTML = "";
  window.history.replaceState(null, "", "/");
});

describe("the plan list before the app (register-shell.js)", () => {
  it("names and words every card as the app does", async () => {
    const shell = await drawShell();
    const shellCards = [...shell.querySelectorAll(".shell-card")].map((card) => ({
      name: card.querySelector("input")!.getAttribute("aria-label"),
      words: card.querySelector("b")!.textContent,
      under: card.querySelector("small")!.textContent,
    }));
    document.body.innerHTML = "";
    renderWithProviders(<MembershipChoice offerings={offerings} />, { theme: touchTheme });
    const appNames = screen.getAllByRole("radio").map((radio) => radio.getAttribute("aria-label"));
    expect(shellCards.map((card) => card.name)).toEqual(appNames);
    expect(shellCards.map((card) => card.name)).toEqual([
      "Summer Pass: 10 visits, valid 90 days, $120.00 paid once",
      "Summer Pass: $24.00 Weekly",
      "Anytime: 7-day free trial, then $24.00 Weekly",
      "Anytime: 14-day trial for $10.00, then $60.00 Monthly",
    ]);
    for (const card of shellCards) {
      expect(screen.getAllByText(card.words!)).not.toHaveLength(0);
      expect(screen.getAllByText(card.under!)).not.toHaveLength(0);
    }
  });
});
