import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { matchEmptyMediaQuery } from "../../offerings/test-support";
import { PromoCodesRoute } from "./promo-codes";

let restore: () => void;
beforeEach(() => {
  restore = matchEmptyMediaQuery();
});
afterEach(() => {
  restore();
  vi.unstubAllGlobals();
});

const code = {
  id: "c1",
  code: "BF50",
  gym: null,
  kind: "percent",
  percent_basis_points: 5_000,
  amount_off: null,
  formatted_off: "50%",
  periods: 1,
  offering_ids: [],
  price_ids: [],
  starts_on: "2026-11-27",
  ends_on: "2026-11-30",
  use_limit: 100,
  uses: 3,
  uses_left: 97,
  status: "active",
  summary: "50% off the first period",
  archived_at: null,
  created_at: "2026-11-20T00:00:00.000Z",
};

describe("the promo codes page (docs/offers.md)", () => {
  it("lists codes with their discount, dates and uses, and makes one in cents and basis points", async () => {
    const { calls } = mockFetch((c) => {
      if (c.url === "/api/promo-codes" && c.method === "POST") return jsonResponse({ data: code }, 201);
      if (c.url === "/api/promo-codes") return jsonResponse({ data: [code] });
      return jsonResponse({ data: null });
    });
    const { user } = renderWithProviders(<PromoCodesRoute />, { route: "/promo-codes" });
    expect(await screen.findByText("BF50")).toBeInTheDocument();
    expect(screen.getByText("50% off the first period")).toBeInTheDocument();
    expect(screen.getByText("3 of 100")).toBeInTheDocument();
    await user.type(screen.getByRole("textbox", { name: "Code" }), "summer");
    await user.type(screen.getByRole("textbox", { name: "Percent off" }), "12.5");
    await user.click(screen.getByRole("button", { name: "Make code" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({
      code: "summer",
      kind: "percent",
      percent_basis_points: 1_250,
      amount_off: null,
      periods: null,
      use_limit: null,
    });
  });

  it("shows a refusal under its field", async () => {
    mockFetch((c) => {
      if (c.url === "/api/promo-codes" && c.method === "POST")
        return jsonResponse(
          {
            message: "taken",
            errors: { code: ["An organisation's codes each have their own name: this one is taken."] },
          },
          422,
        );
      return jsonResponse({ data: [] });
    });
    const { user } = renderWithProviders(<PromoCodesRoute />, { route: "/promo-codes" });
    await user.type(await screen.findByRole("textbox", { name: "Code" }), "BF50");
    await user.type(screen.getByRole("textbox", { name: "Percent off" }), "50");
    await user.click(screen.getByRole("button", { name: "Make code" }));
    expect(
      await screen.findByText("An organisation's codes each have their own name: this one is taken."),
    ).toBeInTheDocument();
  });

  it('limits a code to a gym, memberships and prices (docs/offers.md "Making a code")', async () => {
    const { calls } = mockFetch((c) => {
      if (c.url === "/api/promo-codes" && c.method === "POST") return jsonResponse({ data: code }, 201);
      if (c.url === "/api/gyms") return jsonResponse({ data: [{ id: "g1", name: "Ponsonby" }] });
      if (c.url === "/api/offerings")
        return jsonResponse({
          data: [
            { id: "o1", name: "Anytime", prices: [{ id: "p1", label: "$24.00 Weekly" }] },
            { id: "o2", name: "Off-Peak", prices: [{ id: "p2", label: "$15.00 Weekly" }] },
          ],
        });
      if (c.url === "/api/promo-codes") return jsonResponse({ data: [] });
      return jsonResponse({ data: null });
    });
    const { user } = renderWithProviders(<PromoCodesRoute />, { route: "/promo-codes" });
    await user.type(await screen.findByRole("textbox", { name: "Code" }), "ANY50");
    await user.type(screen.getByRole("textbox", { name: "Percent off" }), "50");
    await user.click(screen.getByRole("combobox", { name: "Gym" }));
    await user.click(await screen.findByRole("option", { name: "Ponsonby" }));
    await user.click(screen.getByRole("combobox", { name: /Only for these memberships/ }));
    await user.click(await screen.findByRole("option", { name: "Anytime" }));
    await user.click(screen.getByRole("combobox", { name: /Only for these prices/ }));
    await user.click(await screen.findByRole("option", { name: "Off-Peak: $15.00 Weekly" }));
    await user.click(screen.getByRole("button", { name: "Make code" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({
      code: "ANY50",
      gym_id: "g1",
      offering_ids: ["o1"],
      price_ids: ["p2"],
    });
  });
});
