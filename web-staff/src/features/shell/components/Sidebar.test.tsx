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

  it("lists what the person may do, who they are, and signs out to the sign-in page", async () => {
    let signedOut = false;
    const person = signedIn({
      ...trainer(),
      is_gym_admin: true,
      gyms: [
        { id: "g-ponsonby", name: "Harbour Fitness Ponsonby", role: "admin" },
        { id: "g-newmarket", name: "Harbour Fitness Newmarket", role: "admin" },
      ],
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

    const access = screen.getByRole("group", { name: "Your access" });
    const row = (label: string) => within(access).getByText(label).parentElement!;
    expect(row("Organisation admin")).toHaveTextContent("No");
    expect(row("Gym admin")).toHaveTextContent("Yes");
    expect(row("Admin of several gyms")).toHaveTextContent("Yes");
    expect(row("Multi-gym")).toHaveTextContent("Yes");

    const who = screen.getByRole("group", { name: "Signed in as" });
    expect(who).toHaveTextContent("Taylor Trainer");
    expect(who).toHaveTextContent("Harbour Fitness");

    await user.click(screen.getByRole("button", { name: "Logout" }));
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeInTheDocument();
    expect(location()).toBe("/login");
    expect(calls.some((call) => call.method === "POST" && call.url === "/api/logout")).toBe(true);
    // Signing out is known locally: the guard does not ask the server again.
    expect(calls.filter((call) => call.url === "/api/me")).toHaveLength(1);
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
