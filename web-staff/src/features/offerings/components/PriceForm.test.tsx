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
});
