import { jsonResponse, paymentFixture as payment } from "@gym/web/testing";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mockApi, renderApp, signedIn, staffUser, trainer } from "../../../app/test-support";
import { matchEmptyMediaQuery } from "../../offerings/test-support";
import { paymentsRoutes } from "./index";

let restoreMatchMedia: () => void;
beforeEach(() => {
  restoreMatchMedia = matchEmptyMediaQuery();
});
afterEach(() => restoreMatchMedia());

const transfer = payment("pif", {
  status: "awaiting_payment",
  outcome: "awaiting",
  type: "pif",
  surcharge: 0,
  formatted_surcharge: "$0.00",
  total: 29_900,
  formatted_total: "$299.00",
  price_label: "$299.00 PIF",
});

describe("/payments", () => {
  it("lists payments with status badges and surcharge, and pages through the address", async () => {
    const seen: string[] = [];
    mockApi({
      "GET /api/me": signedIn(staffUser()),
      "GET /api/payments": ({ url }: { url: string }) => {
        seen.push(url);
        const cursor = new URL(url, "http://localhost").searchParams.get("cursor");
        return cursor === "c2"
          ? jsonResponse({
              data: [payment("p3", { status: "failed", error_description: "Card declined" })],
              meta: { next_cursor: null, per_page: 25 },
            })
          : jsonResponse({
              data: [payment("p1", { status: "sent", outcome: "successful" }), transfer],
              meta: { next_cursor: "c2", per_page: 25 },
            });
      },
    });
    const { user, location } = renderApp("/payments", { features: paymentsRoutes });
    const table = await screen.findByRole("table", { name: "Payments" }, { timeout: 10_000 });
    expect(await within(table).findByText("Member p1")).toBeInTheDocument();
    // The member's name opens their page (tour: staff copied the name into the members search).
    expect(within(table).getByRole("link", { name: "Member p1" })).toHaveAttribute("href", "/members/u-p1");
    expect(within(table).getByText("Successful")).toBeInTheDocument();
    expect(within(table).getByText("$24.00 + $0.90 surcharge")).toBeInTheDocument();
    expect(within(table).getByText("Awaiting payment")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Expected payments" })).toHaveAttribute(
      "href",
      "/expected-payments-debugging",
    );

    await user.click(screen.getByRole("button", { name: "Next" }));
    expect(await within(table).findByText("Member p3")).toBeInTheDocument();
    expect(within(table).getByText("Card declined")).toBeInTheDocument();
    expect(location()).toBe("/payments?cursor=c2&page=2");
    expect(seen.at(-1)).toContain("cursor=c2");
    expect(screen.getByText("Page 2")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Next" })).not.toBeInTheDocument();
  });

  it("shows the credit an upcoming payment is paid from, and links each member to their page (issue 34 tour)", async () => {
    // As the member's page and the reminder read it: $15.00, less $6.00 credit, plus the surcharge.
    const partly = payment("credit-part", {
      amount: 1_500,
      formatted_amount: "$15.00",
      credit_used: 600,
      surcharge: 53,
      formatted_surcharge: "$0.53",
      total: 953,
      formatted_total: "$9.53",
    });
    // Paid from credit in full: $0.00, and why.
    const wholly = payment("credit-all", {
      credit_used: 2_400,
      surcharge: 0,
      formatted_surcharge: "$0.00",
      total: 0,
      formatted_total: "$0.00",
    });
    mockApi({
      "GET /api/me": signedIn(staffUser()),
      "GET /api/payments": () =>
        jsonResponse({ data: [partly, wholly], meta: { next_cursor: null, per_page: 25 } }),
    });
    renderApp("/payments", { features: paymentsRoutes });
    const table = await screen.findByRole("table", { name: "Payments" }, { timeout: 10_000 });
    expect(await within(table).findByText("$9.53")).toBeInTheDocument();
    expect(within(table).getByText("$15.00 − $6.00 credit + $0.53 surcharge")).toBeInTheDocument();
    expect(within(table).queryByText("$15.00 + $0.53 surcharge")).not.toBeInTheDocument();
    expect(within(table).getByText("$24.00 − $24.00 credit")).toBeInTheDocument();
    expect(within(table).getByRole("link", { name: "Member credit-part" })).toHaveAttribute(
      "href",
      "/members/u-credit-part",
    );
  });

  it("marks a bank transfer received after confirming", async () => {
    let received = false;
    mockApi({
      "GET /api/me": signedIn(staffUser()),
      "GET /api/payments": () =>
        jsonResponse({
          data: [received ? { ...transfer, status: "sent", outcome: "successful" } : transfer],
          meta: { next_cursor: null, per_page: 25 },
        }),
      "POST /api/payments/pif/received": () => {
        received = true;
        return jsonResponse({ data: { ...transfer, status: "sent" } });
      },
    });
    const { user } = renderApp("/payments", { features: paymentsRoutes });
    const table = await screen.findByRole("table", { name: "Payments" }, { timeout: 10_000 });
    await user.click(await within(table).findByRole("button", { name: "Mark received" }));
    const dialog = await screen.findByRole("dialog", { name: "Mark payment received?" });
    expect(within(dialog).getByText(/\$299\.00 from Member pif/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Mark received" }));
    await waitFor(() => expect(received).toBe(true));
    expect(await within(table).findByText("Successful")).toBeInTheDocument();
  });

  it("takes due dates day first in the UI kit's date inputs (issue 35), never the browser's mm/dd/yyyy", async () => {
    const seen: string[] = [];
    mockApi({
      "GET /api/me": signedIn(staffUser()),
      "GET /api/payments": ({ url }: { url: string }) => {
        seen.push(url);
        return jsonResponse({ data: [], meta: { next_cursor: null, per_page: 25 } });
      },
    });
    const { user, location } = renderApp("/payments", { features: paymentsRoutes });
    const from = await screen.findByRole("textbox", { name: "Due from" }, { timeout: 10_000 });
    expect(from).not.toHaveAttribute("type", "date");
    expect(from).toHaveAttribute("placeholder", "DD/MM/YYYY");
    await user.type(from, "2/11/2026");
    await user.click(screen.getByRole("heading", { level: 1, name: "Payments" }));
    await waitFor(() => expect(location()).toBe("/payments?from=2026-11-02"));
    expect(seen.at(-1)).toContain("from=2026-11-02");
    expect(from).toHaveValue("2/11/2026");
    expect(document.querySelector('input[type="date"]')).toBeNull();
  });

  it("sends trainers away: the payments list is for admins (docs/access-control.md)", async () => {
    const payments = vi.fn(() =>
      jsonResponse({ data: [transfer], meta: { next_cursor: null, per_page: 25 } }),
    );
    mockApi({ "GET /api/me": signedIn(trainer()), "GET /api/payments": payments });
    renderApp("/payments", { features: paymentsRoutes });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(screen.queryByRole("table", { name: "Payments" })).not.toBeInTheDocument();
    expect(payments).not.toHaveBeenCalled();
  });

  it("shows the simulated business date while the local clock is moved", async () => {
    mockApi({
      "GET /api/me": signedIn(staffUser()),
      "GET /api/payments": () => jsonResponse({ data: [], meta: { next_cursor: null, per_page: 25 } }),
      "GET /api/dev/clock": {
        now: "2026-12-01T08:00:00Z",
        today: "2026-12-01",
        simulated: true,
        offset_ms: 1,
      },
    });
    renderApp("/payments", { features: paymentsRoutes });
    expect(await screen.findByTestId("business-clock-banner", {}, { timeout: 10_000 })).toHaveTextContent(
      "Simulated business date: 1/12/2026",
    );
    expect(await screen.findByText("No payments match these filters")).toBeInTheDocument();
  });
});

describe("/expected-payments-debugging", () => {
  it("shows organisation admins what the next runs charge and what is stuck", async () => {
    mockApi({
      "GET /api/me": signedIn(staffUser()),
      "GET /api/expected-payments-debugging": {
        today: "2026-11-23",
        until: "2026-12-06",
        partial: false,
        days: [
          {
            date: "2026-11-24",
            count: 2,
            total: 4_890,
            formatted_total: "$48.90",
            gyms: [
              {
                gym: { id: "g-ponsonby", name: "Harbour Fitness Ponsonby" },
                count: 2,
                amount: 4_800,
                surcharge: 90,
                total: 4_890,
                formatted_total: "$48.90",
                by_type: { stripe_card: 1, bank_account: 1 },
              },
            ],
          },
        ],
        stuck: [
          {
            reason: "flagged",
            detail: "Still unsettled after 12 polls.",
            payment: payment("p9", { status: "pending_request" }),
          },
        ],
        next_cursor: "2026-11-01#p8",
        owing: { amount: 7_200, count: 2, formatted_amount: "$72.00" },
        mismatches: [],
      },
    });
    const { location } = renderApp("/expected-payments-debugging", { features: paymentsRoutes });
    const table = await screen.findByRole(
      "table",
      { name: "Expected payments by day and gym" },
      { timeout: 10_000 },
    );
    expect(within(table).getByText("$48.90")).toBeInTheDocument();
    expect(within(table).getByText("Card 1, Bank account 1")).toBeInTheDocument();
    expect(screen.getByText("Flagged after polls")).toBeInTheDocument();
    expect(screen.getByText("Still unsettled after 12 polls.")).toBeInTheDocument();
    expect(screen.getByText("Owing now: $72.00 across 2 memberships.")).toBeInTheDocument();
    // Older payments that need attention: the page's cursor goes in the address.
    await userEvent.setup().click(screen.getByRole("button", { name: "Older" }));
    await waitFor(() =>
      expect(location()).toBe(
        `/expected-payments-debugging?days=14&cursor=${encodeURIComponent("2026-11-01#p8")}`,
      ),
    );
  });

  it("sends other staff to the dashboard", async () => {
    mockApi({ "GET /api/me": signedIn(trainer()) });
    const { location } = renderApp("/expected-payments-debugging", { features: paymentsRoutes });
    await waitFor(() => expect(location()).toBe("/dashboard"), { timeout: 10_000 });
  });
});
