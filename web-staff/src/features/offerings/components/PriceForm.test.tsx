import { renderWithProviders } from "@gym/web/testing";
import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { newPriceValues } from "../api/forms";
import { PriceForm } from "./PriceForm";

describe("the price form", () => {
  it("says an amount must be a number when letters are typed, not that it is required", async () => {
    const { user } = renderWithProviders(
      <PriceForm
        options={{
          billing_frequencies: [{ value: "weekly", label: "Weekly" }],
          term_units: [{ value: "months", label: "Months" }],
        }}
        initialValues={newPriceValues()}
        submitLabel="Add price"
        onSubmit={vi.fn(async () => undefined)}
        onCancel={vi.fn()}
      />,
    );
    await user.type(screen.getByRole("textbox", { name: /^Amount/ }), "abc");
    expect(await screen.findByText("Enter a number, like 24.90")).toBeInTheDocument();
    expect(screen.queryByText("Value is required")).not.toBeInTheDocument();
  });

  it('sends a trial as days and cents (docs/offers.md "Trials"); a trial cost without days is refused', async () => {
    const onSubmit = vi.fn(async () => undefined);
    const { user } = renderWithProviders(
      <PriceForm
        options={{
          billing_frequencies: [{ value: "weekly", label: "Weekly" }],
          term_units: [{ value: "months", label: "Months" }],
        }}
        initialValues={{ ...newPriceValues(), billing_frequency: "weekly" }}
        submitLabel="Add price"
        onSubmit={onSubmit}
        onCancel={vi.fn()}
      />,
    );
    await user.type(screen.getByRole("textbox", { name: /^Amount/ }), "24");
    await user.type(screen.getByRole("textbox", { name: /^Trial costs/ }), "5");
    await user.click(screen.getByRole("button", { name: "Add price" }));
    expect(await screen.findByText("Enter how many days the trial lasts")).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
    await user.type(screen.getByRole("textbox", { name: /^Trial days/ }), "7");
    await user.click(screen.getByRole("button", { name: "Add price" }));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ trial_days: 7, trial_amount: 500 }));
  });

  it('a pay-in-full price may be a visit pass (docs/offers.md "Visit passes"): it sends visits; other prices have no Visits field', async () => {
    const onSubmit = vi.fn(async () => undefined);
    const { user } = renderWithProviders(
      <PriceForm
        options={{
          billing_frequencies: [{ value: "one_off", label: "PIF" }],
          term_units: [{ value: "months", label: "Months" }],
        }}
        initialValues={{
          ...newPriceValues(),
          billing_frequency: "one_off",
          term_amount: 3,
          term_unit: "months",
        }}
        submitLabel="Add price"
        onSubmit={onSubmit}
        onCancel={vi.fn()}
      />,
    );
    await user.type(screen.getByRole("textbox", { name: /^Amount/ }), "150");
    await user.type(screen.getByRole("textbox", { name: /^Visits/ }), "10");
    await user.click(screen.getByRole("button", { name: "Add price" }));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ billing_frequency: "one_off", amount: 15000, visits: 10 }),
    );
  });

  it("a recurring price shows no Visits field", () => {
    renderWithProviders(
      <PriceForm
        options={{
          billing_frequencies: [{ value: "weekly", label: "Weekly" }],
          term_units: [{ value: "months", label: "Months" }],
        }}
        initialValues={{ ...newPriceValues(), billing_frequency: "weekly" }}
        submitLabel="Add price"
        onSubmit={vi.fn(async () => undefined)}
        onCancel={vi.fn()}
      />,
    );
    expect(screen.queryByRole("textbox", { name: /^Visits/ })).not.toBeInTheDocument();
  });
});
