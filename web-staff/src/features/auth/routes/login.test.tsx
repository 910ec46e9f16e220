import { jsonResponse } from "@gym/web/testing";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { awaitingCode, mockApi, noSession, renderApp, signedIn, staffUser } from "../../../app/test-support";
import { safeRedirect } from "./login";

const email = () => screen.getByRole("textbox", { name: /^Email/ });
const password = () => screen.getByLabelText(/^Password/, { selector: "input" });

describe("login page", () => {
  it("renders a labelled sign-in form with a link to reset the password", async () => {
    mockApi({ "GET /api/me": noSession });
    renderApp("/login");
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeInTheDocument();
    expect(email()).toHaveAttribute("type", "email");
    expect(password()).toHaveAttribute("autocomplete", "current-password");
    expect(screen.getByRole("link", { name: "Forgot password?" })).toHaveAttribute(
      "href",
      "/forgot-password",
    );
    expect(screen.getByRole("link", { name: "Privacy policy" })).toHaveAttribute(
      "href",
      "/legal/privacy-policy",
    );
  });

  it("asks for both fields before calling the API", async () => {
    const { calls } = mockApi({ "GET /api/me": noSession });
    const { user } = renderApp("/login");
    await user.click(await screen.findByRole("button", { name: "Sign in" }));
    expect(await screen.findAllByText("Value is required")).toHaveLength(2);
    expect(calls.filter((call) => call.url === "/api/login")).toHaveLength(0);
  });

  it("shows the server's message when the credentials are refused", async () => {
    const { calls } = mockApi({
      "GET /api/me": noSession,
      "POST /api/login": () =>
        jsonResponse(
          {
            message: "These credentials do not match our records.",
            errors: { email: ["These credentials do not match our records."] },
          },
          422,
        ),
    });
    const { user } = renderApp("/login");
    await user.type(await screen.findByRole("textbox", { name: /^Email/ }), "coach@gym.nz");
    await user.type(password(), "wrong password");
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("These credentials do not match our records.");
    const login = calls.find((call) => call.url === "/api/login")!;
    expect(login).toMatchObject({
      method: "POST",
      body: { email: "coach@gym.nz", password: "wrong password" },
    });
    expect(login.headers.get("X-Requested-With")).toBe("XMLHttpRequest");
    expect(screen.getByRole("button", { name: "Sign in" })).toBeEnabled();
  });

  it("shows the throttling message after repeated failures", async () => {
    mockApi({
      "GET /api/me": noSession,
      "POST /api/login": () =>
        jsonResponse(
          { message: "Too many failed sign-in attempts. Please wait 15 minutes and try again." },
          429,
        ),
    });
    const { user } = renderApp("/login");
    await user.type(await screen.findByRole("textbox", { name: /^Email/ }), "coach@gym.nz");
    await user.type(password(), "another guess");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Too many failed sign-in attempts.");
  });

  it("goes to the two-factor page (keeping the redirect) once the password is accepted", async () => {
    let loggedIn = false;
    mockApi({
      "GET /api/me": () => (loggedIn ? awaitingCode() : noSession()),
      "POST /api/login": () => {
        loggedIn = true;
        return jsonResponse({ data: { two_factor_required: true } });
      },
    });
    const { user, location } = renderApp("/login?redirect=%2Fmembers");
    await user.type(await screen.findByRole("textbox", { name: /^Email/ }), "coach@gym.nz");
    await user.type(password(), "correct horse battery");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("heading", { name: "Check your email" })).toBeInTheDocument();
    expect(location()).toBe("/two-factor-authentication?redirect=%2Fmembers");
    expect(screen.getByText("coach@gym.nz")).toBeInTheDocument();
  });

  it("pre-fills the email and shows a notice handed over by another page", async () => {
    mockApi({ "GET /api/me": noSession });
    const { router } = renderApp("/login?email=owner%40example.org");
    expect(await screen.findByRole("textbox", { name: /^Email/ })).toHaveValue("owner@example.org");
    await router.navigate("/login?email=owner%40example.org", {
      state: { notice: "Your password is set. Sign in with it now." },
    });
    expect(await screen.findByText("Your password is set. Sign in with it now.")).toBeInTheDocument();
  });

  it("sends someone already signed in onward", async () => {
    mockApi({ "GET /api/me": signedIn(staffUser()) });
    const { location } = renderApp("/login");
    expect(await screen.findByRole("heading", { level: 1, name: /, Avery$/ })).toBeInTheDocument();
    expect(location()).toBe("/dashboard");
  });

  it("never redirects off site", () => {
    expect(safeRedirect("//evil.example", "/dashboard")).toBe("/dashboard");
    expect(safeRedirect("https://evil.example", "/dashboard")).toBe("/dashboard");
    expect(safeRedirect("/\\evil.example", "/dashboard")).toBe("/dashboard");
    expect(safeRedirect("/members/1", "/dashboard")).toBe("/members/1");
  });
});
