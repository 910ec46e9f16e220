import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppProviders } from "../app/AppProviders";
import { jsonResponse, mockFetch } from "../testing";
import {
  AuthProvider,
  type CurrentUser,
  guestGuard,
  joinStaffGuard,
  readGuestFlag,
  siteUrl,
  staffGuard,
  useAuth,
} from ".";

const user = (overrides: Partial<CurrentUser> = {}) =>
  ({
    id: "u1",
    name: "Avery Admin",
    is_staff: true,
    is_organisation_admin: true,
    ...overrides,
  }) as CurrentUser;
const place = (host: string, protocol = "https:") => {
  const [hostname, port = ""] = host.split(":");
  return { protocol, hostname, port };
};

describe("the other site's address", () => {
  it("is the configured one when set", () => {
    expect(siteUrl("join", place("staff.gym.nz"), "https://members.gym.nz/")).toBe("https://members.gym.nz");
  });

  it("swaps the local ports 3000 and 3001", () => {
    expect(siteUrl("join", place("localhost:3000", "http:"))).toBe("http://localhost:3001");
    expect(siteUrl("staff", place("localhost:3001", "http:"))).toBe("http://localhost:3000");
  });

  it("swaps the first label of a deployed host", () => {
    expect(siteUrl("join", place("staff.harbourfitness.co.nz"))).toBe("https://join.harbourfitness.co.nz");
    expect(siteUrl("join", place("admin.harbourfitness.co.nz"))).toBe("https://join.harbourfitness.co.nz");
    expect(siteUrl("staff", place("join.harbourfitness.co.nz"))).toBe("https://staff.harbourfitness.co.nz");
  });

  it("goes through the API's redirect when nothing can be derived", () => {
    expect(`${siteUrl("join", place("d1234.cloudfront.net"))}/`).toBe(
      "https://d1234.cloudfront.net/api/sites/join?path=/",
    );
  });
});

describe("guard decisions", () => {
  const options = { intended: "/members?page=2", joinUrl: "https://join.gym.nz" };

  it("follow spec 000 §4 for staff pages", () => {
    expect(staffGuard({ status: "guest" }, options)).toEqual({
      kind: "navigate",
      to: "/login?redirect=%2Fmembers%3Fpage%3D2",
    });
    expect(staffGuard({ status: "guest", signedOut: true }, options)).toEqual({
      kind: "navigate",
      to: "/login",
    });
    expect(staffGuard({ status: "failed", error: new Error("down") }, options)).toEqual({
      kind: "navigate",
      to: "/login?redirect=%2Fmembers%3Fpage%3D2",
    });
    expect(staffGuard({ status: "two_factor" }, options)).toEqual({
      kind: "navigate",
      to: "/two-factor-authentication?redirect=%2Fmembers%3Fpage%3D2",
    });
    expect(staffGuard({ status: "signed_in", user: user({ is_staff: false }) }, options)).toEqual({
      kind: "leave",
      href: "https://join.gym.nz/",
    });
    const trainer = { status: "signed_in" as const, user: user({ is_organisation_admin: false }) };
    expect(staffGuard(trainer, { ...options, organisationAdminOnly: true })).toEqual({
      kind: "navigate",
      to: "/dashboard",
      notice: "Only organisation admins can open that page.",
    });
    expect(staffGuard(trainer, options)).toEqual({ kind: "allow" });
  });

  it("send signed-in people away from guest pages, and staff away from the join site", () => {
    const signedIn = { status: "signed_in" as const, user: user() };
    expect(guestGuard(signedIn, "/visits")).toEqual({ kind: "navigate", to: "/visits" });
    expect(guestGuard(signedIn, "https://evil.example")).toEqual({ kind: "navigate", to: "/dashboard" });
    expect(guestGuard({ status: "two_factor" }, "/visits")).toEqual({ kind: "allow" });
    expect(joinStaffGuard(signedIn, "https://staff.gym.nz")).toEqual({
      kind: "leave",
      href: "https://staff.gym.nz/dashboard",
    });
    expect(joinStaffGuard({ status: "signed_in", user: user({ is_staff: false }) }, "x")).toEqual({
      kind: "allow",
    });
    expect(joinStaffGuard(undefined, "x")).toEqual({ kind: "allow" });
  });
});

function Probe() {
  const auth = useAuth();
  return (
    <div>
      <p>gotMe {String(auth.gotMe)}</p>
      <p>guest {String(auth.isGuest)}</p>
      <p>user {auth.user?.name ?? "none"}</p>
      <p>subscription {auth.activeSubscription ? auth.activeSubscription.id : "none"}</p>
      <button type="button" onClick={() => void auth.getActiveSubscription()}>
        subscription
      </button>
      <button type="button" onClick={() => void auth.logout()}>
        logout
      </button>
    </div>
  );
}

function renderProbe() {
  render(
    <AppProviders env="test" swr={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <AuthProvider>
        <Probe />
      </AuthProvider>
    </AppProviders>,
  );
  return userEvent.setup();
}

describe("the client auth state", () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => localStorage.clear());

  it("marks a guest, and remembers it as isGuest", async () => {
    mockFetch(() => jsonResponse({ message: "Unauthenticated." }, 401));
    renderProbe();
    expect(screen.getByText("gotMe false")).toBeInTheDocument();
    expect(await screen.findByText("gotMe true")).toBeInTheDocument();
    expect(screen.getByText("guest true")).toBeInTheDocument();
    expect(readGuestFlag()).toBe("isGuest");
  });

  it("holds the signed-in user (isNotGuest), the active subscription (404 = none), and forgets them on logout", async () => {
    let subscription = false;
    const { calls } = mockFetch((call) => {
      if (call.url === "/api/me") return jsonResponse({ data: user() });
      if (call.url === "/api/me/active-subscription") {
        return subscription
          ? jsonResponse({ data: { id: "sub-1" } })
          : jsonResponse({ message: "Not found" }, 404);
      }
      return jsonResponse({ data: { message: "Signed out." } });
    });
    const actor = renderProbe();
    expect(await screen.findByText("user Avery Admin")).toBeInTheDocument();
    expect(readGuestFlag()).toBe("isNotGuest");

    await actor.click(screen.getByRole("button", { name: "subscription" }));
    await waitFor(() => expect(calls.some((c) => c.url === "/api/me/active-subscription")).toBe(true));
    expect(screen.getByText("subscription none")).toBeInTheDocument();
    subscription = true;
    await actor.click(screen.getByRole("button", { name: "subscription" }));
    expect(await screen.findByText("subscription sub-1")).toBeInTheDocument();

    await actor.click(screen.getByRole("button", { name: "logout" }));
    expect(await screen.findByText("user none")).toBeInTheDocument();
    expect(screen.getByText("subscription none")).toBeInTheDocument();
    expect(readGuestFlag()).toBe("isGuest");
    expect(calls.some((c) => c.url === "/api/logout" && c.method === "POST")).toBe(true);
  });
});
