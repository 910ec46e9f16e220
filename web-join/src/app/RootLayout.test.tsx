import { BaseProviders, touchTheme } from "@gym/web/app";
import { AuthProvider } from "@gym/web/auth";
import { jsonResponse, mockFetch } from "@gym/web/testing";
import { render, screen, waitFor } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { browser } from "./config";
import { RootLayout } from "./RootLayout";

function renderJoin() {
  localStorage.clear();
  const router = createMemoryRouter(
    [{ element: <RootLayout />, children: [{ index: true, element: <h1>Join the gym</h1> }] }],
    { initialEntries: ["/"] },
  );
  render(
    <BaseProviders theme={touchTheme} env="test" swr={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
    </BaseProviders>,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe("the join site's staff redirect", () => {
  it("sends a signed-in staff user to the staff dashboard", async () => {
    vi.stubEnv("VITE_STAFF_URL", "https://staff.harbourfitness.co.nz");
    const leave = vi.spyOn(browser, "leave").mockImplementation(() => {});
    mockFetch(() => jsonResponse({ data: { id: "u1", name: "Avery Admin", is_staff: true } }));
    renderJoin();
    await waitFor(() => expect(leave).toHaveBeenCalledWith("https://staff.harbourfitness.co.nz/dashboard"));
  });

  it("shows the page to a signed-in member and to a guest", async () => {
    const leave = vi.spyOn(browser, "leave").mockImplementation(() => {});
    mockFetch(() => jsonResponse({ data: { id: "u2", name: "Morgan Member", is_staff: false } }));
    renderJoin();
    expect(await screen.findByRole("heading", { name: "Join the gym" })).toBeInTheDocument();

    mockFetch(() => jsonResponse({ message: "Unauthenticated." }, 401));
    renderJoin();
    expect((await screen.findAllByRole("heading", { name: "Join the gym" })).length).toBeGreaterThan(0);
    expect(leave).not.toHaveBeenCalled();
  });
});
