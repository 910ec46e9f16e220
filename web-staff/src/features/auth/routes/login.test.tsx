import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { LoginRoute, safeRedirect } from "./login";

const destinations = [
  { path: "/two-factor-authentication", element: <p>two-factor page</p> },
  { path: "/dashboard", element: <p>dashboard page</p> },
  { path: "/members", element: <p>members page</p> },
];

function renderLogin(route = "/login") {
  return renderWithProviders(<LoginRoute />, { route, path: "/login", routes: destinations });
}

describe("login page", () => {
  it("renders a labelled sign-in form with a link to reset the password", () => {
    renderLogin();
    expect(screen.getByRole("heading", { name: "Sign in" })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute("type", "email");
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute("autocomplete", "current-password");
    expect(screen.getByRole("link", { name: "Forgot password?" })).toHaveAttribute(
      "href",
      "/forgot-password",
    );
    expect(screen.getByRole("button", { name: "Sign in" })).toBeInTheDocument();
  });

  it("asks for both fields before calling the API", async () => {
    const { calls } = mockFetch(() => jsonResponse({ data: {} }));
    const { user } = renderLogin();
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findAllByText("Value is required")).toHaveLength(2);
    expect(calls).toHaveLength(0);
  });

  it("shows the server's message when the credentials are refused (401)", async () => {
    const { calls } = mockFetch(() =>
      jsonResponse({ message: "These credentials do not match our records." }, 401),
    );
    const { user } = renderLogin();
    await user.type(screen.getByLabelText(/^Email/), "coach@gym.nz");
    await user.type(screen.getByLabelText(/^Password/), "wrong password");
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("These credentials do not match our records.");
    expect(calls[0]).toMatchObject({
      url: "/api/login",
      method: "POST",
      body: { email: "coach@gym.nz", password: "wrong password" },
    });
    expect(calls[0].headers.get("X-Requested-With")).toBe("XMLHttpRequest");
    expect(screen.getByRole("button", { name: "Sign in" })).toBeEnabled();
  });

  it("handles an answer that is not JSON (e.g. the API is not up yet)", async () => {
    mockFetch(() => new Response("<html>Bad gateway</html>", { status: 502, statusText: "Bad Gateway" }));
    const { user } = renderLogin();
    await user.type(screen.getByLabelText(/^Email/), "coach@gym.nz");
    await user.type(screen.getByLabelText(/^Password/), "secret");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Bad Gateway");
  });

  it("goes to the two-factor page when a code is required", async () => {
    mockFetch(() => jsonResponse({ data: { two_factor_required: true } }));
    const { user } = renderLogin();
    await user.type(screen.getByLabelText(/^Email/), "coach@gym.nz");
    await user.type(screen.getByLabelText(/^Password/), "correct horse");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByText("two-factor page")).toBeInTheDocument();
  });

  it("follows a same-site redirect when no code is needed", async () => {
    mockFetch(() => jsonResponse({ data: { two_factor_required: false } }));
    const { user, router } = renderLogin("/login?redirect=%2Fmembers");
    await user.type(screen.getByLabelText(/^Email/), "coach@gym.nz");
    await user.type(screen.getByLabelText(/^Password/), "correct horse");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByText("members page")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/members");
  });

  it("never redirects off site", () => {
    expect(safeRedirect("//evil.example", "/dashboard")).toBe("/dashboard");
    expect(safeRedirect("https://evil.example", "/dashboard")).toBe("/dashboard");
    expect(safeRedirect("/members/1", "/dashboard")).toBe("/members/1");
  });
});
