import { AuthProvider } from "@gym/web/auth";
import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { adminUser } from "../../gyms/test-support";
import type { AccountingMappingView } from "../api/accounting";
import { AccountingAccountsRoute } from "./accounting-accounts";
import { AccountingExportRoute } from "./accounting-export";

afterEach(() => vi.unstubAllGlobals());

const mapping: AccountingMappingView = {
  income_account: "200",
  income_tax_rate: "15% GST on Income",
  offerings: [],
  surcharge_account: "260",
  joining_fee_account: "200",
  break_fee_account: "260",
  fees_account: "404",
  fees_tax_rate: "15% GST on Expenses",
  credit_account: "835",
  refunds_account: "200",
  no_gst_tax_rate: "No GST",
  stripe_clearing_account: "621",
  akahu_clearing_account: "622",
  desk_clearing_account: "623",
  transfer_clearing_account: "624",
  bank_account: "090",
  tracking_name: "Gym",
  gyms: [],
  is_default: true,
  updated_at: null,
};
const gyms = [
  { id: "gym1", name: "Ponsonby" },
  { id: "gym2", name: "Newmarket" },
];

function render(element: React.ReactNode, route: string) {
  const fetch = mockFetch((call) => {
    if (call.url === "/api/me") return jsonResponse({ data: adminUser });
    if (call.url === "/api/gyms") return jsonResponse({ data: gyms });
    if (call.url.endsWith("/accounting") && call.method === "PUT")
      return jsonResponse({
        data: { ...(call.body as object), is_default: false, updated_at: "2026-11-27T00:00:00Z" },
      });
    if (call.url.endsWith("/accounting")) return jsonResponse({ data: mapping });
    if (call.url.startsWith("/api/accounting/journals?"))
      return jsonResponse({
        data: {
          from: "2026-10-01",
          to: "2026-10-31",
          days: 31,
          exported: [{ date: "2026-10-01", gym_id: "gym1", exported_at: "2026-11-01T20:00:00Z", lines: 5 }],
        },
      });
    if (call.url.startsWith("/api/accounting/gst-summary"))
      return jsonResponse({
        data: {
          from: "2026-10-01",
          to: "2026-10-31",
          gst_registered: true,
          total_sales: 2_300,
          gst_collected: 300,
          zero_rated: 0,
          invoices: 1,
          formatted_total_sales: "$23.00",
          formatted_gst_collected: "$3.00",
          formatted_zero_rated: "$0.00",
        },
      });
    return jsonResponse({ data: null });
  });
  const rendered = renderWithProviders(<AuthProvider>{element}</AuthProvider>, {
    route,
    routes: [{ path: "/dashboard", element: <p>Dashboard</p> }],
  });
  return { ...rendered, calls: fetch.calls };
}

describe("accounts for Xero", () => {
  it("says the defaults are Xero's standard chart, checks codes, and saves the whole mapping with each gym's option", async () => {
    const { user, calls } = render(<AccountingAccountsRoute />, "/accounting/accounts");
    expect(await screen.findByText("These are the defaults")).toBeInTheDocument();
    const form = screen.getByRole("form", { name: "Accounts" });
    const income = within(form).getByRole("textbox", { name: /Membership income/ });
    await user.clear(income);
    await user.click(within(form).getByRole("button", { name: "Save accounts" }));
    expect(await within(form).findByText("Value is required")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "PUT")).toHaveLength(0);
    await user.type(income, "201");
    await user.type(within(form).getByRole("textbox", { name: "Ponsonby" }), "Ponsonby gym");
    await user.click(within(form).getByRole("button", { name: "Save accounts" }));
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(1));
    expect(calls.find((c) => c.method === "PUT")).toMatchObject({
      url: "/api/organisations/org1/accounting",
      body: {
        income_account: "201",
        gyms: [
          { gym_id: "gym1", tracking_option: "Ponsonby gym" },
          { gym_id: "gym2", tracking_option: null },
        ],
      },
    });
  });
});

describe("the accounting page", () => {
  it("says which days were exported before and shows the GST summary", async () => {
    render(<AccountingExportRoute />, "/accounting");
    expect(await screen.findByTestId("exported-before")).toHaveTextContent(
      "1 day (by gym) of this period was exported before",
    );
    expect(await screen.findByTestId("gst-collected")).toHaveTextContent("$3.00");
    expect(screen.getByRole("button", { name: "Export journals for Xero" })).toBeInTheDocument();
  });
});
