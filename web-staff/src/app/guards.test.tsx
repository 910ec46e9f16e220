import { jsonResponse } from "@gym/web/testing";
import { act, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { browser } from "./config";
import {
  awaitingCode,
  member,
  mockApi,
  noSession,
  renderApp,
  signedIn,
  staffUser,
  trainer,
} from "./test-support";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("the staff route guard", () => {
  it("sends someone not signed in to sign-in, remembering where they were going", async () => {
    mockApi({ "GET /api/me": noSession });
    const { location } = renderApp("/members?tab=active");
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeInTheDocument();
    expect(location()).toBe("/login?redirect=%2Fmembers%3Ftab%3Dactive");
  });

  it("sends a session waiting for its emailed code to the two-factor page", async () => {
    mockApi({ "GET /api/me": awaitingCode });
    const { location } = renderApp("/dashboard");
    expect(await screen.findByRole("heading", { name: "Check your email" })).toBeInTheDocument();
    expect(location()).toBe("/two-factor-authentication?redirect=%2Fdashboard");
  });

  it("treats any other failure of the current-user call like no session", async () => {
    mockApi({ "GET /api/me": () => jsonResponse({ message: "Service unavailable" }, 503) });
    const { location } = renderApp("/payments");
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeInTheDocument();
    expect(location()).toBe("/login?redirect=%2Fpayments");
  });

  it("sends a signed-in person who is not staff to the join site's register page", async () => {
    vi.stubEnv("VITE_JOIN_URL", "https://join.example.nz/");
    const leave = vi.spyOn(browser, "leave").mockImplementation(() => {});
    mockApi({ "GET /api/me": signedIn(member()) });
    renderApp("/dashboard");
    await waitFor(() => expect(leave).toHaveBeenCalledWith("https://join.example.nz/"));
    expect(screen.queryByRole("heading", { name: /Morgan/ })).not.toBeInTheDocument();
  });

  it("sends staff who are not organisation admins from organisation settings to the dashboard", async () => {
    mockApi({ "GET /api/me": signedIn(trainer()) });
    const { location } = renderApp("/organisation/settings");
    expect(await screen.findByRole("heading", { level: 1, name: /, Taylor$/ })).toBeInTheDocument();
    expect(location()).toBe("/dashboard");
    expect(await screen.findByText("Only organisation admins can open that page.")).toBeInTheDocument();
  });

  it("answers an unknown address inside the signed-in layout, with a way back to the dashboard", async () => {
    mockApi({ "GET /api/me": signedIn(staffUser()) });
    renderApp("/no-such-page");
    expect(await screen.findByRole("link", { name: "Back to the dashboard" })).toHaveAttribute(
      "href",
      "/dashboard",
    );
    expect(screen.queryByRole("link", { name: "Go to sign in" })).not.toBeInTheDocument();
    expect(screen.getByRole("navigation", { name: /main/i })).toBeInTheDocument();
  });

  it("lets organisation admins open organisation settings", async () => {
    mockApi({ "GET /api/me": signedIn(staffUser()) });
    const { location } = renderApp("/organisation/settings");
    expect(await screen.findByRole("heading", { level: 1, name: "Settings" })).toBeInTheDocument();
    expect(location()).toBe("/organisation/settings");
  });

  it("honours an organisation-admin flag on a feature's route", async () => {
    mockApi({ "GET /api/me": signedIn(trainer()) });
    const { location } = renderApp("/webhooks", {
      features: [{ path: "webhooks", handle: { organisationAdmin: true }, element: <h1>Webhooks</h1> }],
    });
    expect(await screen.findByRole("heading", { level: 1, name: /, Taylor$/ })).toBeInTheDocument();
    expect(location()).toBe("/dashboard");
  });

  it("mounts feature routes in the layout, and bare when they opt out of it", async () => {
    mockApi({ "GET /api/me": signedIn(staffUser()) });
    const features = [
      { path: "offerings", element: <h1>Offerings list</h1> },
      { path: "stripe/callback", handle: { useLayout: false }, element: <h1>Connecting Stripe</h1> },
    ];
    const first = renderApp("/offerings", { features });
    expect(await screen.findByRole("heading", { name: "Offerings list" })).toBeInTheDocument();
    expect(screen.getByRole("navigation", { name: "Main" })).toBeInTheDocument();
    first.unmount();

    renderApp("/stripe/callback", { features });
    expect(await screen.findByRole("heading", { name: "Connecting Stripe" })).toBeInTheDocument();
    expect(screen.queryByRole("navigation", { name: "Main" })).not.toBeInTheDocument();
  });

  it("shows a coming-soon page inside the layout for sidebar entries without a screen yet", async () => {
    mockApi({ "GET /api/me": signedIn(staffUser()) });
    renderApp("/visits");
    expect(await screen.findByRole("heading", { level: 1, name: "Visits" })).toBeInTheDocument();
    expect(screen.getByText("Coming soon")).toBeInTheDocument();
    expect(screen.getByRole("navigation", { name: "Main" })).toBeInTheDocument();
  });
});

describe("guest-only pages", () => {
  it("send someone signed in on to the redirect target", async () => {
    mockApi({ "GET /api/me": signedIn(staffUser()) });
    const { location } = renderApp("/login?redirect=%2Fpayments");
    expect(await screen.findByRole("heading", { level: 1, name: "Payments" })).toBeInTheDocument();
    expect(location()).toBe("/payments");
  });

  it("send someone signed in to the dashboard when there is no redirect (and never off site)", async () => {
    mockApi({ "GET /api/me": signedIn(staffUser()) });
    const { location } = renderApp("/forgot-password?redirect=%2F%2Fevil.example");
    expect(await screen.findByRole("heading", { level: 1, name: /, Avery$/ })).toBeInTheDocument();
    expect(location()).toBe("/dashboard");
  });

  it("show the page to a guest", async () => {
    mockApi({ "GET /api/me": noSession });
    renderApp("/forgot-password");
    expect(await screen.findByRole("heading", { name: "Forgot your password?" })).toBeInTheDocument();
  });

  it("keep what a guest typed while the check of who they are was still out", async () => {
    // The answer to "who is this?" held back while the person types (a slow network, or a quick typist).
    let answer: (response: Response) => void = () => {};
    mockApi({ "GET /api/me": () => new Promise<Response>((resolve) => (answer = resolve)) });
    const { user } = renderApp("/login");
    const email = await screen.findByRole("textbox", { name: /^Email/ });
    await user.type(email, "early@example.com");
    // The answer (a guest) and everything it sets off, drawn.
    await act(async () => {
      answer(noSession());
      await new Promise((done) => setTimeout(done, 0));
    });
    // Still the same field with what was typed, not one drawn anew and empty.
    expect(screen.getByRole("textbox", { name: /^Email/ })).toBe(email);
    expect(email).toHaveValue("early@example.com");
  });

  it("redirect / to sign-in", async () => {
    mockApi({ "GET /api/me": noSession });
    const { location } = renderApp("/");
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeInTheDocument();
    expect(location()).toBe("/login");
  });
});
