import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { matchEmptyMediaQuery } from "../test-support";
import { OfferingsListRoute } from "./offerings-list";

let restoreMatchMedia: () => void;
beforeEach(() => {
  restoreMatchMedia = matchEmptyMediaQuery();
});
afterEach(() => restoreMatchMedia());

const offering = (
  id: string,
  name: string,
  archived: boolean,
  prices: { id: string; label: string; private?: boolean }[],
) => ({
  id,
  name,
  type: "24_7",
  type_label: "24/7",
  subtitle_formatted: `All gyms · ${prices.length} prices`,
  frequencies_formatted: "Weekly",
  subscriptions_count: 0,
  archived_at: archived ? "2026-01-01T00:00:00Z" : null,
  prices: prices.map((p) => ({ ...p, private: p.private ?? false, archived_at: null })),
});

function serve(canManage: boolean) {
  mockFetch(({ url }) => {
    if (url === "/api/offerings") {
      return jsonResponse({
        data: [
          offering("o1", "Anytime", false, [
            { id: "p1", label: "$24.00 Weekly" },
            { id: "p2", label: "$15.00 Weekly", private: true },
          ]),
          offering("o2", "Student Saver", true, [{ id: "p3", label: "$12.00 Weekly" }]),
        ],
        meta: { next_cursor: null, per_page: 2 },
      });
    }
    if (url === "/api/offering-options")
      return jsonResponse({ data: { enable_offerings: true, can_manage: canManage } });
    return jsonResponse({ message: "Not found" }, 404);
  });
}

describe("offerings list", () => {
  it("lists active offerings with their prices, archived ones on their own tab", async () => {
    serve(true);
    const { user } = renderWithProviders(<OfferingsListRoute />, { route: "/offerings" });
    const table = await screen.findByRole("table", { name: "Offerings" });
    expect(within(table).getByRole("link", { name: "Anytime" })).toHaveAttribute("href", "/offerings/o1");
    expect(within(table).getByText("$24.00 Weekly")).toBeInTheDocument();
    expect(within(table).getByText("$15.00 Weekly (private)")).toBeInTheDocument();
    expect(within(table).queryByText("Student Saver")).not.toBeInTheDocument();
    expect(await screen.findByRole("link", { name: "Create offering" })).toHaveAttribute(
      "href",
      "/offerings/create",
    );

    await user.click(screen.getByRole("tab", { name: /Archived/ }));
    expect(await screen.findByRole("link", { name: "Student Saver" })).toBeInTheDocument();
  });

  it("offers no create button to staff who cannot manage offerings", async () => {
    serve(false);
    renderWithProviders(<OfferingsListRoute />, { route: "/offerings" });
    expect(await screen.findByRole("link", { name: "Anytime" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Create offering" })).not.toBeInTheDocument();
  });
});
