import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen, waitFor, within } from "@testing-library/react";
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
    expect(screen.getAllByText("50% off the first period").length).toBeGreaterThan(0);
    expect(screen.getAllByText("3 of 100").length).toBeGreaterThan(0);
    await user.click(screen.getByRole("button", { name: "New code" }));
    await user.type(await screen.findByRole("textbox", { name: "Code" }), "summer");
    await user.type(screen.getByRole("textbox", { name: "Percent off" }), "12.5");
    await user.click(screen.getByRole("button", { name: "Make code" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({
      code: "SUMMER",
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
    await user.click(await screen.findByRole("button", { name: "New code" }));
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
    await user.click(await screen.findByRole("button", { name: "New code" }));
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

  it("takes dates day first, shows them day first, and words each status", async () => {
    const { calls } = mockFetch((c) => {
      if (c.url === "/api/promo-codes" && c.method === "POST") return jsonResponse({ data: code }, 201);
      if (c.url === "/api/promo-codes") return jsonResponse({ data: [{ ...code, status: "used_up" }] });
      return jsonResponse({ data: [] });
    });
    const { user } = renderWithProviders(<PromoCodesRoute />, { route: "/promo-codes" });
    expect((await screen.findAllByText("27/11/2026 to 30/11/2026")).length).toBeGreaterThan(0);
    expect(screen.getAllByText("Used up").length).toBeGreaterThan(0);
    await user.click(screen.getByRole("button", { name: "New code" }));
    const dialog = await screen.findByRole("dialog", { name: "New code" });
    await user.type(within(dialog).getByRole("textbox", { name: "Code" }), "DEC");
    await user.type(within(dialog).getByRole("textbox", { name: "Percent off" }), "10");
    await user.type(within(dialog).getByLabelText(/First day/), "1/12/2026");
    await user.type(within(dialog).getByLabelText(/Last day/), "31/12/2026");
    await user.click(within(dialog).getByRole("button", { name: "Make code" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({
      code: "DEC",
      percent_basis_points: 1_000,
      starts_on: "2026-12-01",
      ends_on: "2026-12-31",
    });
  });

  it("checks before sending: a percent code with no percentage is not sent", async () => {
    const { calls } = mockFetch(() => jsonResponse({ data: [] }));
    const { user } = renderWithProviders(<PromoCodesRoute />, { route: "/promo-codes" });
    await user.click(await screen.findByRole("button", { name: "New code" }));
    await user.type(await screen.findByRole("textbox", { name: "Code" }), "NOPE");
    await user.click(screen.getByRole("button", { name: "Make code" }));
    expect(await screen.findByText("Enter a percentage between 0.01% and 100%")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);
  });

  it("changes a code's terms, never its name, in cents and basis points", async () => {
    const { calls } = mockFetch((c) => {
      if (c.url === "/api/promo-codes/c1" && c.method === "PUT") return jsonResponse({ data: code });
      if (c.url === "/api/promo-codes") return jsonResponse({ data: [code] });
      return jsonResponse({ data: [] });
    });
    const { user } = renderWithProviders(<PromoCodesRoute />, { route: "/promo-codes" });
    await user.click(await screen.findByRole("button", { name: "Change BF50" }));
    const dialog = await screen.findByRole("dialog", { name: "Change BF50" });
    expect(within(dialog).getByRole("textbox", { name: "Code" })).toBeDisabled();
    const percent = within(dialog).getByRole("textbox", { name: "Percent off" });
    expect(percent).toHaveValue("50%");
    await user.clear(percent);
    await user.type(percent, "25");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    const body = calls.find((c) => c.method === "PUT")?.body as Record<string, unknown>;
    expect(body).toMatchObject({ kind: "percent", percent_basis_points: 2_500, periods: 1, use_limit: 100 });
    expect(body).not.toHaveProperty("code");
  });

  it("says what archiving does before it archives", async () => {
    const { calls } = mockFetch((c) => {
      if (c.method === "DELETE") return jsonResponse({ data: { ...code, status: "archived" } });
      if (c.url === "/api/promo-codes") return jsonResponse({ data: [code] });
      return jsonResponse({ data: [] });
    });
    const { user } = renderWithProviders(<PromoCodesRoute />, { route: "/promo-codes" });
    await user.click(await screen.findByRole("button", { name: "Archive BF50" }));
    const dialog = await screen.findByRole("dialog", { name: "Archive BF50" });
    expect(within(dialog).getByText(/Members who joined with it keep their discount/)).toBeInTheDocument();
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await user.click(within(dialog).getByRole("button", { name: "Archive" }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === "DELETE" && c.url === "/api/promo-codes/c1/archive")).toBe(true),
    );
  });
});
