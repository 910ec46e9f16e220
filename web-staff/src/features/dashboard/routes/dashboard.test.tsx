import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { mockApi, renderApp, signedIn, trainer } from "../../../app/test-support";
import { membersRoutes } from "../../members/routes";
import { paymentsRoutes } from "../../payments/routes";

describe("a personal trainer's dashboard (docs/access-control.md)", () => {
  it("offers only what a trainer can open, in words that promise nothing else", async () => {
    mockApi({ "GET /api/me": signedIn(trainer()) });
    renderApp("/dashboard");
    const steps = await screen.findByRole("region", { name: "Get started" });
    const links = within(steps).getAllByRole("link");
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      expect(["/members", "/visits", "/offerings"]).toContain(link.getAttribute("href"));
      // Payments, prices and quotes are the admins' (the money).
      expect(link.textContent).not.toMatch(/payment|price|quote/i);
    }
  });
});

describe("a page a trainer may not open", () => {
  it("sends them to the dashboard and says why, once", async () => {
    mockApi({ "GET /api/me": signedIn(trainer()) });
    const { location } = renderApp("/payments", { features: [...paymentsRoutes, ...membersRoutes] });
    expect(await screen.findByRole("heading", { level: 1, name: /, Taylor$/ })).toBeInTheDocument();
    expect(location()).toBe("/dashboard");
    const said = await screen.findAllByText("Only admins can open that page: it shows the gym's money.");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.getAllByText("Only admins can open that page: it shows the gym's money.")).toHaveLength(1);
    expect(said).toHaveLength(1);
  });

  it("tells a gym admin an organisation-admin page is the organisation admins'", async () => {
    const { staffUser } = await import("../../../app/test-support");
    mockApi({
      "GET /api/me": signedIn(
        staffUser({
          current_organisation: { id: "o-harbour", name: "Harbour Fitness", multi_gym: true, role: null },
          is_organisation_admin: false,
          is_gym_admin: true,
          gyms: [{ id: "g-ponsonby", name: "Harbour Fitness Ponsonby", role: "admin" }],
          current_gym: { id: "g-ponsonby", role: "admin" },
        }),
      ),
    });
    const { location } = renderApp("/organisation/settings");
    expect(await screen.findByText("Only organisation admins can open that page.")).toBeInTheDocument();
    expect(location()).toBe("/dashboard");
  });
});
