import { renderWithProviders } from "@gym/web/testing";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { OffersCard } from "./offers";

describe("the dashboard's offers (docs/offers.md 'Reporting')", () => {
  it("is a region named Offers with each figure beside its label, the money as dollars", async () => {
    renderWithProviders(
      <OffersCard
        offers={{
          trials_started: 2,
          trials_converted: 1,
          trials_stopped: 1,
          codes_used: 2,
          discount_given: 2400,
          passes_sold: 1,
          pass_visits_used: 3,
        }}
      />,
    );
    const card = await screen.findByRole("region", { name: "Offers" });
    const figure = (label: string) =>
      within(within(card).getByRole("rowheader", { name: label }).closest("tr") as HTMLElement).getByRole(
        "cell",
      ).textContent;
    expect(figure("Trials started")).toBe("2");
    expect(figure("Trials converted")).toBe("1");
    expect(figure("Trials stopped")).toBe("1");
    expect(figure("Promo codes used")).toBe("2");
    expect(figure("Given away by promo codes")).toBe("$24.00");
    expect(figure("Visit passes sold")).toBe("1");
    expect(figure("Pass visits used")).toBe("3");
  });
});
