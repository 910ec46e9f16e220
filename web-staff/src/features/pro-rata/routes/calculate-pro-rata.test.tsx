import { parseNzDate } from "@gym/web/format";
import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { CalculateProRataRoute } from "./calculate-pro-rata";

const prices = [
  {
    id: "p1",
    label: "$24.00 Weekly",
    billing_frequency: "weekly",
    private: false,
    offering: { id: "o1", name: "Anytime" },
  },
  {
    id: "p2",
    label: "$299.00 PIF",
    billing_frequency: "one_off",
    private: false,
    offering: { id: "o2", name: "Summer" },
  },
];

const result = {
  price_id: "p1",
  price_label: "$24.00 Weekly",
  offering: { id: "o1", name: "Anytime" },
  frequency_label: "Weekly",
  start_date: "2025-06-02",
  billing_date: "2025-06-05",
  is_pro_rata: true,
  pro_rata_days: 3,
  period_days: 7,
  period_start: "2025-05-29",
  pro_rata_amount: 1029,
  joining_fee: 0,
  first_payment_date: "2025-06-02",
  first_payment_total: 1029,
  first_full_payment_date: "2025-06-05",
  recurring_amount: 2400,
  latest_billing_date: "2025-06-08",
  formatted_pro_rata_amount: "$10.29",
  formatted_joining_fee: "$0.00",
  formatted_first_payment_total: "$10.29",
  formatted_recurring_amount: "$24.00",
  card_surcharge: 56,
  formatted_card_surcharge: "$0.56",
  formatted_first_payment_total_with_card_surcharge: "$10.85",
};

function serve(answer: (body: unknown) => Response) {
  return mockFetch(({ url, method, body }) => {
    if (url === "/api/me") return jsonResponse({ data: { current_organisation: { id: "org1" } } });
    if (url === "/api/organisations/org1/prices")
      return jsonResponse({ data: prices, meta: { next_cursor: null, per_page: 2 } });
    if (url === "/api/prices/p1/pro-rata" && method === "POST") return answer(body);
    return jsonResponse({ message: "Not found" }, 404);
  });
}

async function fill(user: ReturnType<typeof renderWithProviders>["user"], start: string, billing: string) {
  await user.click(screen.getByRole("combobox", { name: "Price" }));
  await user.click(await screen.findByRole("option", { name: "$24.00 Weekly" }));
  await user.type(screen.getByRole("textbox", { name: "Start date" }), start);
  await user.type(screen.getByRole("textbox", { name: "Billing date" }), billing);
  await user.click(screen.getByRole("button", { name: "Calculate" }));
}

describe("pro-rata calculator", () => {
  it("reads New Zealand dates", () => {
    expect(parseNzDate("2/6/2025")).toBe("2025-06-02");
    expect(parseNzDate("29/02/2024")).toBe("2024-02-29");
    expect(parseNzDate("2025-06-02")).toBe("2025-06-02");
    expect(parseNzDate("29/02/2025")).toBeNull();
    expect(parseNzDate("next week")).toBeNull();
  });

  it("offers recurring prices only, and breaks down the first payment", async () => {
    const { calls } = serve(() => jsonResponse({ data: result }));
    const { user } = renderWithProviders(<CalculateProRataRoute />, { route: "/calculate-pro-rata" });
    await user.click(screen.getByRole("combobox", { name: "Price" }));
    expect(await screen.findByRole("option", { name: "$24.00 Weekly" })).toBeInTheDocument();
    expect(screen.queryByRole("option", { name: "$299.00 PIF" })).not.toBeInTheDocument();
    await user.keyboard("{Escape}");

    await fill(user, "02/06/2025", "05/06/2025");
    const breakdown = await screen.findByRole("region", { name: "First payment" });
    expect(
      within(breakdown).getByText("Pro-rata: 3 of 7 days (period from 29 May 2025)"),
    ).toBeInTheDocument();
    expect(within(breakdown).getByTestId("first-payment-total")).toHaveTextContent("$10.29");
    expect(within(breakdown).getByText(/\$10\.85/)).toBeInTheDocument();
    expect(within(breakdown).getByText("Then $24.00 weekly from 5 June 2025.")).toBeInTheDocument();
    expect(calls.find((call) => call.method === "POST")?.body).toEqual({
      start_date: "2025-06-02",
      billing_date: "2025-06-05",
    });
  });

  it("asks for every field, and shows the server's message on the billing date", async () => {
    serve(() =>
      jsonResponse(
        {
          message: "The billing date must be on or before 7/06/2025",
          errors: { billing_date: ["The billing date must be on or before 7/06/2025"] },
        },
        422,
      ),
    );
    const { user } = renderWithProviders(<CalculateProRataRoute />, { route: "/calculate-pro-rata" });
    await user.click(screen.getByRole("button", { name: "Calculate" }));
    expect(await screen.findAllByText("Value is required")).toHaveLength(3);

    await fill(user, "01/06/2025", "09/06/2025");
    expect(await screen.findByText("The billing date must be on or before 7/06/2025")).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole("region", { name: "First payment" })).not.toBeInTheDocument(),
    );
  });
});
