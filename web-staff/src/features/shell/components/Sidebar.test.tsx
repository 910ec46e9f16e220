import { jsonResponse } from "@gym/web/testing";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { mockApi, noSession, renderApp, signedIn, staffUser, trainer } from "../../../app/test-support";

const nav = () => screen.getByRole("navigation", { name: "Main" });

describe("the sidebar", () => {
  it("shows organisation admins the Organisation group with Staff, Gyms, Settings and Calculate Pro Rata", async () => {
    mockApi({ "GET /api/me": signedIn(staffUser()) });
    const { user } = renderApp("/dashboard");
    await screen.findByRole("heading", { level: 1, name: /, Avery$/ });
    const links = within(nav())
      .getAllByRole("link")
      .map((link) => link.textContent);
    expect(links).toEqual(["Dashboard", "Members", "Payments", "Visits", "Offerings"]);

    const group = within(nav()).getByRole("button", { name: "Organisation" });
    expect(group).toHaveAttribute("aria-expanded", "false");
    await user.click(group);
    expect(group).toHaveAttribute("aria-expanded", "true");
    for (const name of ["Staff", "Gyms", "Settings", "Calculate Pro Rata"]) {
      expect(within(nav()).getByRole("link", { name })).toBeVisible();
    }
    expect(within(nav()).getByRole("link", { name: "Settings" })).toHaveAttribute(
      "href",
      "/organisation/settings",
    );
  });

  it("hides the Organisation group from staff who are not organisation admins", async () => {
    mockApi({ "GET /api/me": signedIn(trainer()) });
    renderApp("/dashboard");
    await screen.findByRole("heading", { level: 1, name: /, Taylor$/ });
    expect(within(nav()).queryByRole("button", { name: "Organisation" })).not.toBeInTheDocument();
    expect(within(nav()).queryByRole("link", { name: "Settings" })).not.toBeInTheDocument();
    expect(within(nav()).getByRole("link", { name: "Offerings" })).toBeInTheDocument();
  });

  it("highlights the entry of the current page, including the pages below it", async () => {
    mockApi({ "GET /api/me": signedIn(staffUser()) });
    renderApp("/members/m-123", { features: [{ path: "members/:id", element: <h1>Member detail</h1> }] });
    await screen.findByRole("heading", { name: "Member detail" });
    expect(within(nav()).getByRole("link", { name: "Members" })).toHaveAttribute("aria-current", "page");
    expect(within(nav()).getByRole("link", { name: "Dashboard" })).not.toHaveAttribute("aria-current");
  });

  it("keeps the group open while one of its pages is shown", async () => {
    mockApi({ "GET /api/me": signedIn(staffUser()) });
    const { user } = renderApp("/calculate-pro-rata");
    await screen.findByRole("heading", { level: 1, name: "Calculate Pro Rata" });
    const group = within(nav()).getByRole("button", { name: "Organisation" });
    expect(group).toHaveAttribute("aria-expanded", "true");
    expect(within(nav()).getByRole("link", { name: "Calculate Pro Rata" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await user.click(group);
    expect(group).toHaveAttribute("aria-expanded", "true");
    expect(within(nav()).getByRole("link", { name: "Calculate Pro Rata" })).toBeVisible();
  });

  it("says who is signed in and their role, and signs out to the sign-in page", async () => {
    let signedOut = false;
    const person = signedIn({
      ...trainer(),
      is_gym_admin: true,
      gyms: [
        { id: "g-ponsonby", name: "Harbour Fitness Ponsonby", role: "admin" },
        { id: "g-newmarket", name: "Harbour Fitness Newmarket", role: "admin" },
      ],
      current_gym: { id: "g-ponsonby", role: "admin" },
      administers_several_gyms: true,
    });
    const { calls } = mockApi({
      "GET /api/me": () => (signedOut ? noSession() : person()),
      "POST /api/logout": () => {
        signedOut = true;
        return jsonResponse({ data: { message: "Signed out." } });
      },
    });
    const { user, location } = renderApp("/dashboard");
    await screen.findByRole("heading", { level: 1, name: /, Taylor$/ });

    // Who is signed in, in words: their role here under their name, no table of Yes/No flags.
    expect(screen.queryByRole("group", { name: "Your access" })).not.toBeInTheDocument();
    expect(screen.queryByText("Admin of several gyms")).not.toBeInTheDocument();
    const who = screen.getByRole("group", { name: "Signed in as" });
    expect(who).toHaveTextContent("Taylor Trainer");
    expect(within(who).getByText("Gym admin")).toBeInTheDocument();
    expect(who).toHaveTextContent("Harbour Fitness");

    await user.click(screen.getByRole("button", { name: "Logout" }));
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeInTheDocument();
    expect(location()).toBe("/login");
    expect(calls.some((call) => call.method === "POST" && call.url === "/api/logout")).toBe(true);
    // Signing out is known locally: the guard does not ask the server again.
    expect(calls.filter((call) => call.url === "/api/me")).toHaveLength(1);
  });

  it("names an organisation admin's role and a trainer's under their name", async () => {
    mockApi({ "GET /api/me": signedIn(staffUser()) });
    const first = renderApp("/dashboard");
    await screen.findByRole("heading", { level: 1, name: /, Avery$/ });
    expect(
      within(screen.getByRole("group", { name: "Signed in as" })).getByText("Organisation admin"),
    ).toBeInTheDocument();
    first.unmount();

    mockApi({ "GET /api/me": signedIn(trainer()) });
    renderApp("/dashboard");
    await screen.findByRole("heading", { level: 1, name: /, Taylor$/ });
    expect(
      within(screen.getByRole("group", { name: "Signed in as" })).getByText("Personal Trainer"),
    ).toBeInTheDocument();
  });

  it("is a drawer on a phone: hidden until opened, closed again after navigating", async () => {
    mockApi({ "GET /api/me": signedIn(staffUser()) });
    const { user, location } = renderApp("/dashboard", { width: 390 });
    await screen.findByRole("heading", { level: 1, name: /, Avery$/ });
    expect(screen.queryByRole("navigation", { name: "Main" })).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Open navigation" }));
    const drawer = await screen.findByRole("dialog");
    await user.click(within(drawer).getByRole("link", { name: "Payments" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Payments" })).toBeInTheDocument();
    expect(location()).toBe("/payments");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });
});
