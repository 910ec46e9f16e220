import { AuthProvider } from "@gym/web/auth";
import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { matchEmptyMediaQuery } from "../../offerings/test-support";
import { adminUser, trainerUser } from "../test-support";
import { GymsListRoute } from "./gyms-list";

let restore: () => void;
beforeEach(() => {
  restore = matchEmptyMediaQuery();
});
afterEach(() => {
  restore();
  vi.unstubAllGlobals();
});

const gyms = [
  {
    id: "g1",
    name: "Harbour Fitness Ponsonby",
    selected: true,
    role: "admin",
    staff_count: 3,
    members_count: 40,
  },
  {
    id: "g2",
    name: "Harbour Fitness Newmarket",
    selected: false,
    role: "personal_trainer",
    staff_count: 2,
    members_count: 12,
  },
  {
    id: "g3",
    name: "Harbour Fitness Takapuna",
    selected: false,
    role: null,
    staff_count: 1,
    members_count: 0,
  },
];

describe("gyms list", () => {
  it("shows each gym with staff and member counts and the user's role", async () => {
    mockFetch((call) => jsonResponse({ data: call.url === "/api/me" ? adminUser : gyms }));
    renderWithProviders(
      <AuthProvider>
        <GymsListRoute />
      </AuthProvider>,
      { route: "/gyms" },
    );
    expect(await screen.findByRole("link", { name: "Harbour Fitness Ponsonby" })).toHaveAttribute(
      "href",
      "/gyms/g1",
    );
    expect(screen.getByText("Admin")).toBeInTheDocument();
    expect(screen.getByText("Personal Trainer")).toBeInTheDocument();
    expect(screen.getByText("--")).toBeInTheDocument();
    expect(screen.getByText("40")).toBeInTheDocument();
  });

  it("sends staff who administer no gym to the dashboard", async () => {
    mockFetch((call) => jsonResponse({ data: call.url === "/api/me" ? trainerUser : gyms }));
    const { router } = renderWithProviders(
      <AuthProvider>
        <GymsListRoute />
      </AuthProvider>,
      { route: "/gyms", routes: [{ path: "/dashboard", element: <p>Dashboard</p> }] },
    );
    expect(await screen.findByText("Dashboard")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard");
  });
});
