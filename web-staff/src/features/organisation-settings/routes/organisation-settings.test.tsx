import { AuthProvider } from "@gym/web/auth";
import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { adminUser, trainerUser } from "../../gyms/test-support";
import type { OrganisationSettings } from "../api/settings";
import { OrganisationSettingsRoute } from "./organisation-settings";

afterEach(() => vi.unstubAllGlobals());

const settings: OrganisationSettings = {
  id: "org1",
  name: "Harbour Fitness",
  multi_gym: true,
  offering_permissions: { enable_offerings: true, non_stop: true, limited_access: true },
  price_frequencies: ["weekly", "monthly"],
  failed_payment_grace_period: 14,
  failed_payment_grace_period_unit: "days",
  term_membership_grace_period: 30,
  term_membership_grace_period_unit: "days",
  payment_retry_days: [1, 3, 5],
  cooling_off_days: 7,
  pause_day_credit_days: 30,
  card_surcharge_basis_points: 250,
  card_surcharge_fixed_cents: 30,
  break_fee_basis_points: 2500,
  legal_name: null,
  gst_number: null,
  payment_reminder_days: 3,
  access_control_integration: null,
};

function render(user = adminUser) {
  const fetch = mockFetch((call) => {
    if (call.url === "/api/me") return jsonResponse({ data: user });
    if (call.url.endsWith("/registration-settings"))
      return jsonResponse({
        data: call.method === "PUT" ? call.body : { min_registration_age: 16, terms_url: null },
      });
    if (call.method === "PUT") return jsonResponse({ data: { ...settings, ...(call.body as object) } });
    return jsonResponse({ data: settings });
  });
  const rendered = renderWithProviders(
    <AuthProvider>
      <OrganisationSettingsRoute />
    </AuthProvider>,
    { route: "/organisation/settings", routes: [{ path: "/dashboard", element: <p>Dashboard</p> }] },
  );
  return { ...rendered, calls: fetch.calls };
}

describe("organisation settings", () => {
  it("requires both the grace period and its unit", async () => {
    const { user, calls } = render();
    const form = await screen.findByRole("form", { name: "Failed-payment grace period" });
    const value = within(form).getByRole("textbox", { name: /Failed-payment grace period/ });
    await user.clear(value);
    await user.click(within(form).getByRole("button", { name: "Save" }));
    expect(await within(form).findByText("Value is required")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "PUT")).toHaveLength(0);
    await user.type(value, "3");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(1));
    expect(calls.find((c) => c.method === "PUT")).toMatchObject({
      url: "/api/organisations/org1/grace-period",
      body: { failed_payment_grace_period: 3, failed_payment_grace_period_unit: "days" },
    });
  });

  it("saves price frequencies and billing settings in basis points and cents", async () => {
    const { user, calls } = render();
    const frequencies = await screen.findByRole("form", { name: "Price frequencies" });
    await user.click(within(frequencies).getByLabelText("Yearly"));
    await user.click(within(frequencies).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith("/price-frequencies"))).toBe(true));
    expect(calls.find((c) => c.url.endsWith("/price-frequencies"))?.body).toEqual({
      price_frequencies: ["weekly", "monthly", "yearly"],
    });

    const billing = screen.getByRole("form", { name: "Billing settings" });
    const breakFee = within(billing).getByRole("textbox", { name: /Break fee/ });
    await user.clear(breakFee);
    await user.type(breakFee, "12.5");
    await user.click(within(billing).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith("/billing-settings"))).toBe(true));
    expect(calls.find((c) => c.url.endsWith("/billing-settings"))?.body).toEqual({
      payment_retry_days: [1, 3, 5],
      cooling_off_days: 7,
      pause_day_credit_days: 30,
      card_surcharge_basis_points: 250,
      card_surcharge_fixed_cents: 30,
      break_fee_basis_points: 1250,
    });
  });

  it("changes the minimum age to join online, and requires it", async () => {
    const { user, calls } = render();
    const form = await screen.findByRole("form", { name: "Joining online" });
    const age = within(form).getByRole("textbox", { name: /Minimum age to join/ });
    expect(age).toHaveValue("16");
    await user.clear(age);
    await user.click(within(form).getByRole("button", { name: "Save" }));
    expect(await within(form).findByText("Value is required")).toBeInTheDocument();
    await user.type(age, "18");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(1));
    expect(calls.find((c) => c.method === "PUT")).toMatchObject({
      url: "/api/organisations/org1/registration-settings",
      body: { min_registration_age: 18, terms_url: null },
    });
    expect(await screen.findByText("Joining online saved")).toBeInTheDocument();
  });

  it("takes the terms and conditions address only as an https web address", async () => {
    const { user, calls } = render();
    const form = await screen.findByRole("form", { name: "Joining online" });
    const terms = within(form).getByRole("textbox", { name: /Membership terms and conditions/ });
    await user.type(terms, "harbour.example/terms");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    expect(await within(form).findByText("Enter a web address starting with https://")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "PUT")).toHaveLength(0);
    await user.clear(terms);
    await user.type(terms, "https://harbour.example/terms");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(1));
    expect(calls.find((c) => c.method === "PUT")?.body).toEqual({
      min_registration_age: 16,
      terms_url: "https://harbour.example/terms",
    });
  });

  it("sends staff who are not organisation admins to the dashboard", async () => {
    render(trainerUser);
    expect(await screen.findByText("Dashboard")).toBeInTheDocument();
  });
});
