/** The plan list words a visit pass as a pass (docs/offers.md "Visit passes", "Screens"). */
import type { JoinOptions } from "@gym/core/contract/registration";
import { touchTheme } from "@gym/web/app";
import { renderWithProviders } from "@gym/web/testing";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { MembershipChoice } from "./MembershipChoice";

const base = {
  joining_fee: null,
  formatted_joining_fee: null,
  formatted_term: null,
  private: false,
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
        label: "$120.00 PIF",
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
] as unknown as JoinOptions["offerings"];

describe("the plan list", () => {
  it("words a pass by its visits, days and one payment, and other prices as before", () => {
    renderWithProviders(<MembershipChoice offerings={offerings} />, { theme: touchTheme });
    expect(
      screen.getByRole("radio", { name: "Summer Pass: 10 visits, valid 90 days, $120.00 paid once" }),
    ).toBeInTheDocument();
    expect(screen.getByText("Visit pass")).toBeInTheDocument();
    expect(screen.queryByText("$120.00 PIF")).not.toBeInTheDocument();
    expect(screen.queryByText("PIF")).not.toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Summer Pass: $24.00 Weekly" })).toBeInTheDocument();
    expect(screen.getByText("Flexi")).toBeInTheDocument();
  });
});
