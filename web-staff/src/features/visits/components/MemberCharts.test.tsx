import { renderWithProviders } from "@gym/web/testing";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { mockApi } from "../../../app/test-support";
import MemberCharts from "./MemberCharts";

const weeks = ["2026-09-28", "2026-10-05", "2026-10-12"];

describe("the member page's charts", () => {
  it("says 'No visits yet' instead of drawing bare axes when no week has a cost per visit", async () => {
    mockApi({
      "GET /api/members/u-1/weekly-visits": weeks.map((week_start) => ({ week_start, visits: 0 })),
      "GET /api/members/u-1/weekly-cost-per-visit": weeks.map((week_start) => ({
        week_start,
        cost_per_visit: null,
      })),
      "GET /api/members/u-1/subscription-periods": [
        { label: "Anytime Membership", weekly_cost: 2000, start_date: "2026-10-05" },
      ],
    });
    renderWithProviders(<MemberCharts userId="u-1" />);
    const cost = await screen.findByRole("region", { name: "Cost per visit" });
    expect(await within(cost).findByText("No visits yet")).toBeInTheDocument();
    expect(cost.querySelector(".recharts-wrapper, svg.recharts-surface")).toBeNull();
    // Dates read day first (d/MM/yyyy).
    expect(within(cost).getByText(/from 5\/10\/2026/)).toBeInTheDocument();
  });
});
