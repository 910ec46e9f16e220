import { AuthProvider, type CurrentUser } from "@gym/web/auth";
import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { staffUser } from "../../../app/test-support";
import type { Offering, OfferingOptions, Price } from "../api/offerings";
import { matchEmptyMediaQuery } from "../test-support";
import { OfferingShowRoute } from "./offering-show";

let restoreMatchMedia: () => void;
beforeEach(() => {
  restoreMatchMedia = matchEmptyMediaQuery();
});
afterEach(() => restoreMatchMedia());

const price = (overrides: Partial<Price>): Price => ({
  id: "p1",
  offering_id: "o1",
  offering: { id: "o1", name: "Off-Peak" },
  gym: null,
  amount: 1500,
  formatted_amount: "$15.00",
  billing_frequency: "weekly",
  frequency_label: "Weekly",
  label: "$15.00 Weekly",
  joining_fee: null,
  formatted_joining_fee: null,
  private: false,
  private_links: [],
  term_amount: null,
  term_unit: null,
  is_term_membership: false,
  formatted_term: null,
  trial_days: null,
  trial_amount: null,
  formatted_trial: null,
  kind: "recurring",
  visits: null,
  valid_days: null,
  formatted_pass: null,
  membership_type: "Flexi",
  total_value: null,
  formatted_total_value: null,
  total_value_quoted_from: null,
  surcharge: 68,
  formatted_surcharge: "$0.68",
  amount_with_surcharge: 1568,
  formatted_amount_with_surcharge: "$15.68",
  grouping_unique_identifier: "g-p1",
  subscriptions_count: 0,
  can_delete: true,
  offered: true,
  archived_at: null,
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
  ...overrides,
});

const offering: Offering = {
  id: "o1",
  name: "Off-Peak",
  description: "Quieter hours.",
  type: "limited_access",
  type_label: "Limited Hours",
  all_gyms_access: false,
  gyms: [{ id: "g1", name: "Ponsonby" }],
  gym: null,
  mandated: false,
  hours_mandated: true,
  prices_mandated: false,
  hours: [
    {
      id: "h1",
      day: 1,
      day_name: "Monday",
      open_at: "09:00",
      close_at: "16:00",
      open_at_formatted: "9:00 am",
      close_at_formatted: "4:00 pm",
    },
  ],
  hours_formatted: "Mon 9:00 am – 4:00 pm",
  prices: [
    price({}),
    price({
      id: "p2",
      amount: 6000,
      formatted_amount: "$60.00",
      billing_frequency: "monthly",
      frequency_label: "Monthly",
      label: "$60.00 Monthly",
      formatted_amount_with_surcharge: "$61.80",
      subscriptions_count: 3,
      can_delete: false,
      private: true,
    }),
  ],
  prices_count: 2,
  subscriptions_count: 3,
  can_delete: false,
  title_formatted: "Off-Peak (Limited Hours)",
  subtitle_formatted: "Ponsonby · 2 prices",
  frequencies_formatted: "Weekly, Monthly",
  archived_at: null,
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
};

const options: OfferingOptions = {
  enable_offerings: true,
  can_manage: true,
  types: [{ value: "limited_access", label: "Limited Hours" }],
  billing_frequencies: [
    { value: "weekly", label: "Weekly" },
    { value: "one_off", label: "PIF" },
  ],
  term_units: [
    { value: "weeks", label: "Weeks" },
    { value: "months", label: "Months" },
    { value: "years", label: "Years" },
  ],
  gyms: [{ id: "g1", name: "Ponsonby" }],
};

function serve(me: CurrentUser = staffUser()) {
  return mockFetch(({ url, method, body }) => {
    if (url === "/api/me") return jsonResponse({ data: me });
    if (url === "/api/offerings/o1" && method === "GET") return jsonResponse({ data: offering });
    if (url === "/api/offering-options") return jsonResponse({ data: options });
    if (url === "/api/prices/p2/archive" && method === "DELETE") {
      return jsonResponse({ data: { ...offering.prices[1], archived_at: "2026-02-01T00:00:00Z" } });
    }
    if (url === "/api/offerings/o1/prices" && method === "POST") {
      return jsonResponse({ data: price({ id: "p3", label: "$25.00 Weekly", ...(body as object) }) }, 201);
    }
    if (url === "/api/prices/p2/private-links" && method === "POST") {
      return jsonResponse(
        {
          data: {
            id: "l1",
            url: "http://join.test/?price=abc",
            age_bypass: true,
            created_at: "2026-02-01T00:00:00Z",
          },
        },
        201,
      );
    }
    return jsonResponse({ message: "Not found" }, 404);
  });
}

const render = () =>
  renderWithProviders(
    <AuthProvider>
      <OfferingShowRoute />
    </AuthProvider>,
    { route: "/offerings/o1", path: "/offerings/:id" },
  );

describe("offering page", () => {
  it("shows a gym admin of another gym no controls for it (gym scope)", async () => {
    serve(
      staffUser({
        is_organisation_admin: false,
        is_gym_admin: true,
        current_organisation: { id: "o-harbour", name: "Harbour Fitness", multi_gym: true, role: null },
        gyms: [{ id: "g2", name: "Newmarket", role: "admin" }],
      }),
    );
    render();
    expect(await screen.findByRole("heading", { name: "Off-Peak" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: /Edit/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Archive/ })).not.toBeInTheDocument();
  });

  it("shows details, hours and prices", async () => {
    serve();
    render();
    expect(await screen.findByRole("heading", { name: "Off-Peak" })).toBeInTheDocument();
    const hours = screen.getByRole("table", { name: "Hours" });
    expect(within(hours).getByText("Monday")).toBeInTheDocument();
    expect(within(hours).getByText("9:00 am")).toBeInTheDocument();
    expect(screen.getByText("$15.68 by card")).toBeInTheDocument();
    expect(screen.getByText("$60.00")).toBeInTheDocument();
    // Delete is offered only when nobody ever subscribed: not for this offering.
    expect(screen.queryByRole("button", { name: "Delete" })).not.toBeInTheDocument();
  });

  it("archives a price members are on after confirming; delete is not offered for it", async () => {
    const { calls } = serve();
    const { user } = render();
    await user.click(await screen.findByRole("button", { name: "Actions for $60.00 Monthly" }));
    expect(screen.queryByRole("menuitem", { name: "Delete" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("menuitem", { name: "Archive" }));
    const dialog = await screen.findByRole("dialog", { name: "Archive price" });
    await user.click(within(dialog).getByRole("button", { name: "Archive" }));
    await waitFor(() =>
      expect(calls.some((call) => call.url === "/api/prices/p2/archive" && call.method === "DELETE")).toBe(
        true,
      ),
    );
    expect(await screen.findByText("$60.00 Monthly archived")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Actions for $15.00 Weekly" }));
    expect(screen.getByRole("menuitem", { name: "Delete" })).toBeInTheDocument();
  });

  it("adds a price in cents, with the spec's messages first", async () => {
    const { calls } = serve();
    const { user } = render();
    await user.click(await screen.findByRole("button", { name: "Add price" }));
    const dialog = await screen.findByRole("dialog", { name: "Add price" });
    await user.type(within(dialog).getByRole("textbox", { name: "Term amount" }), "12");
    await user.click(within(dialog).getByRole("button", { name: "Add price" }));
    expect(await within(dialog).findAllByText("Value is required")).toHaveLength(2);
    expect(within(dialog).getByText("Please select a term unit")).toBeInTheDocument();

    await user.type(within(dialog).getByRole("textbox", { name: "Amount" }), "24.5");
    await user.click(within(dialog).getByRole("combobox", { name: "Billing frequency" }));
    await user.click(await screen.findByRole("option", { name: "Weekly" }));
    await user.click(within(dialog).getByRole("combobox", { name: "Term unit" }));
    await user.click(await screen.findByRole("option", { name: "Months" }));
    await user.type(within(dialog).getByRole("textbox", { name: "Joining fee" }), "49");
    await user.click(within(dialog).getByRole("button", { name: "Add price" }));

    await waitFor(() => expect(calls.some((call) => call.method === "POST")).toBe(true));
    const post = calls.find((call) => call.method === "POST");
    expect(post?.url).toBe("/api/offerings/o1/prices");
    expect(post?.body).toEqual({
      amount: 2450,
      billing_frequency: "weekly",
      private: false,
      joining_fee: 4900,
      term_amount: 12,
      term_unit: "months",
      trial_days: null,
      trial_amount: null,
      visits: null,
      valid_days: null,
      kind: null,
    });
  });

  it("creates a private link and copies it to the clipboard", async () => {
    const { calls } = serve();
    const { user } = render();
    await user.click(await screen.findByRole("button", { name: "Private links for $60.00 Monthly" }));
    const dialog = await screen.findByRole("dialog", { name: "Private links" });
    expect(within(dialog).getByText("No links yet.")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("checkbox", { name: /age bypass/ }));
    await user.click(within(dialog).getByRole("button", { name: "Create link" }));
    expect(await within(dialog).findByDisplayValue("http://join.test/?price=abc")).toBeInTheDocument();
    // user-event's clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe("http://join.test/?price=abc");
    expect(calls.find((call) => call.url === "/api/prices/p2/private-links")?.body).toEqual({
      age_bypass: true,
    });
    expect(within(dialog).getByText("Age bypass")).toBeInTheDocument();
  });

  it("shows not found for an offering it cannot reach", async () => {
    mockFetch(() => jsonResponse({ message: "That offering could not be found." }, 404));
    render();
    expect(await screen.findByRole("link", { name: "Back to offerings" })).toBeInTheDocument();
  });
});
