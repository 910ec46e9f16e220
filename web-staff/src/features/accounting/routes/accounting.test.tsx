import { AuthProvider } from "@gym/web/auth";
import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { adminUser } from "../../gyms/test-support";
import type { AccountingMappingView, Payout } from "../api/accounting";
import { AccountingAccountsRoute } from "./accounting-accounts";
import { AccountingExportRoute } from "./accounting-export";
import { AccountingPayoutsRoute } from "./accounting-payouts";

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

const payout = (p: Partial<Payout>): Payout => ({
  id: "stripe:po_1",
  provider: "stripe",
  provider_id: "po_1",
  gym_id: "gym1",
  gym_name: "Ponsonby",
  arrival_date: "2026-11-05",
  amount: 3_800,
  fee: 105,
  gross: 3_955,
  formatted_amount: "$38.00",
  payments: [
    {
      payment_id: "pay_1",
      provider_ref: "pi_1",
      member_name: "Casey",
      amount: 2_490,
      fee: 97,
      problem: null,
    },
    {
      payment_id: null,
      provider_ref: "pi_other",
      member_name: null,
      amount: 1_465,
      fee: 8,
      problem: "not one of our payments",
    },
  ],
  adds_up: false,
  problems: ["pi_other ($14.65): not one of our payments"],
  journal: {
    narration: "Ponsonby: Stripe payout po_1 5/11/2026",
    date: "2026-11-05",
    lines: [
      { description: "Deposit: Stripe payout po_1", account: "090", tax_rate: "No GST", amount: 3_800 },
      { description: "Stripe fees", account: "404", tax_rate: "15% GST on Expenses", amount: 105 },
      { description: "Paid out: card payments (Stripe)", account: "621", tax_rate: "No GST", amount: -3_905 },
    ],
  },
  ...p,
});

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
    if (call.url.startsWith("/api/payouts?"))
      return jsonResponse({
        data: call.url.includes("cursor=")
          ? [payout({ id: "akahu:gym1:2026-11-02", provider: "akahu" })]
          : [payout({})],
        meta: { next_cursor: call.url.includes("cursor=") ? null : "stripe:po_1", per_page: 25 },
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

describe("the payouts page", () => {
  it("lists each deposit with its payments, flags one that doesn't add up, shows its journal and pages", async () => {
    const { user } = render(<AccountingPayoutsRoute />, "/accounting/payouts");
    const card = await screen.findByRole("article", { name: "Stripe payout 2026-11-05" });
    expect(within(card).getByTestId("does-not-add-up")).toHaveTextContent("Doesn't add up");
    expect(within(card).getByText("pi_other ($14.65): not one of our payments")).toBeInTheDocument();
    const payments = within(card).getByRole("table", { name: "Payments in this deposit" });
    expect(within(payments).getByRole("link", { name: "pay_1" })).toHaveAttribute(
      "href",
      "/payments/pay_1/receipt",
    );
    const journal = within(card).getByRole("table", { name: "The deposit's journal" });
    expect(within(journal).getByText("$38.00")).toBeInTheDocument();
    expect(within(journal).getByText("-$39.05")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Older" }));
    expect(
      await screen.findByRole("article", { name: "Akahu bank payments 2026-11-05" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Newer" })).toBeInTheDocument();
  });
});

describe("the payouts CSV", () => {
  it("exports the period shown (and the gym chosen) through the payouts export", async () => {
    const { user, calls } = render(<AccountingPayoutsRoute />, "/accounting/payouts");
    await screen.findByRole("article", { name: "Stripe payout 2026-11-05" });
    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(calls.filter((c) => c.url === "/api/payouts/export")).toHaveLength(1));
    const call = calls.find((c) => c.url === "/api/payouts/export")!;
    expect(call.method).toBe("POST");
    expect(call.body).toEqual({
      from: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      to: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });
});
