import type { JoinOptions } from "@gym/core/contract/registration";
import { touchTheme } from "@gym/web/app";
import { AuthProvider } from "@gym/web/auth";
import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen, within } from "@testing-library/react";
import { useLocation } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RegisterRoute } from "../../register/routes/register";
import { ForgotPasswordRoute } from "./forgot-password";
import { PasswordLinkRoute } from "./password-link";

const options = {
  gym: { uuid: "gym-uuid-1", name: "Harbour Fitness Ponsonby", logo: null },
  offerings: [],
} as unknown as JoinOptions;

function api() {
  return mockFetch((call) => {
    if (call.url.startsWith("/api/me")) return jsonResponse({ message: "Unauthenticated." }, 401);
    if (call.url.startsWith("/api/join")) return jsonResponse({ data: options });
    if (call.url === "/api/validate-link")
      return jsonResponse({
        data: { valid: true, purpose: "invite", email: "riley@example.nz", name: "Riley Onboard" },
      });
    if (call.url === "/api/reset-password")
      return jsonResponse({ data: { message: "Password set.", email: "riley@example.nz" } });
    if (call.url === "/api/forgot-password")
      return jsonResponse({
        data: { message: "If an account exists for that email, we've sent a link to reset its password." },
      });
    return jsonResponse({ data: null });
  });
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("passwords on the join site", () => {
  it("the sign-in page offers Forgot password?, for the gym of the link", async () => {
    api();
    const { user } = renderWithProviders(
      <AuthProvider>
        <RegisterRoute />
      </AuthProvider>,
      {
        route: "/?signin=1&gym=gym-uuid-1",
        path: "/",
        theme: touchTheme,
        routes: [{ path: "/forgot-password", element: <Where /> }],
      },
    );
    await user.click(await screen.findByRole("link", { name: "Forgot password?" }));
    expect(await screen.findByTestId("where")).toHaveTextContent("/forgot-password?gym=gym-uuid-1");
  });

  it("asks for a link that opens the join site's page, and says it was sent", async () => {
    const { calls } = api();
    const { user } = renderWithProviders(<ForgotPasswordRoute />, {
      route: "/forgot-password?gym=gym-uuid-1",
      theme: touchTheme,
    });
    expect(
      await within(screen.getByRole("banner")).findByText("Harbour Fitness Ponsonby"),
    ).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Email/), "aroha@example.nz");
    await user.click(screen.getByRole("button", { name: "Email me a link" }));
    expect(await screen.findByText(/we've sent a link to reset its password/)).toBeInTheDocument();
    expect(calls.find((c) => c.url === "/api/forgot-password")?.body).toEqual({
      email: "aroha@example.nz",
      site: "join",
      gym: "gym-uuid-1",
    });
  });

  it("a pay-in-full member sets their password in member words and goes to sign in at their gym", async () => {
    const { calls } = api();
    const { user } = renderWithProviders(<PasswordLinkRoute />, {
      route: "/set-password?token=t1&gym=gym-uuid-1",
      theme: touchTheme,
      routes: [{ path: "/", element: <Where /> }],
    });
    expect(await screen.findByRole("heading", { level: 1, name: "Set your password" })).toBeInTheDocument();
    expect(within(screen.getByRole("banner")).getByText("Harbour Fitness Ponsonby")).toBeInTheDocument();
    expect(screen.getByText(/Welcome, Riley\. Set a password to see your membership\./)).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^New password/), "a long passphrase");
    await user.type(screen.getByLabelText(/^Confirm new password/), "a long passphrase");
    await user.click(screen.getByRole("button", { name: "Set password" }));
    const where = await screen.findByTestId("where");
    expect(where.textContent).toBe("/?signin=1&gym=gym-uuid-1&email=riley%40example.nz&notice=password-set");
    expect(calls.find((c) => c.url === "/api/reset-password")?.body).toMatchObject({ token: "t1" });
    expect(document.body.textContent).not.toMatch(/staff account/);
  });

  it("after setting the password, the sign-in page says so in member words with the email filled in", async () => {
    api();
    renderWithProviders(
      <AuthProvider>
        <RegisterRoute />
      </AuthProvider>,
      {
        route: "/?signin=1&gym=gym-uuid-1&email=riley%40example.nz&notice=password-set",
        path: "/",
        theme: touchTheme,
      },
    );
    expect(
      await screen.findByText("Your password is set. Sign in to see your membership."),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveValue("riley@example.nz");
  });
});
