import { jsonResponse } from "@gym/web/testing";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { mockApi, noSession, renderApp } from "../../../app/test-support";

const FORGOT_MESSAGE = "If an account exists for that email, we've sent a link to reset its password.";
const newPassword = () => screen.getByLabelText(/^New password/, { selector: "input" });
const confirmation = () => screen.getByLabelText(/^Confirm new password/, { selector: "input" });

describe("forgot password", () => {
  it("sends the email and shows the same answer whether or not the account exists", async () => {
    const { calls } = mockApi({
      "GET /api/me": noSession,
      "POST /api/forgot-password": { message: FORGOT_MESSAGE },
    });
    const { user } = renderApp("/forgot-password");
    await user.type(await screen.findByRole("textbox", { name: /^Email/ }), "  coach@gym.nz ");
    await user.click(screen.getByRole("button", { name: "Email me a reset link" }));
    expect(await screen.findByText(FORGOT_MESSAGE)).toBeInTheDocument();
    expect(screen.getByText("coach@gym.nz")).toBeInTheDocument();
    expect(calls.find((c) => c.url === "/api/forgot-password")?.body).toEqual({ email: "coach@gym.nz" });
  });

  it("checks the email before sending", async () => {
    const { calls } = mockApi({ "GET /api/me": noSession });
    const { user } = renderApp("/forgot-password");
    await user.type(await screen.findByRole("textbox", { name: /^Email/ }), "not an email");
    await user.click(screen.getByRole("button", { name: "Email me a reset link" }));
    expect(await screen.findByText("Value is not a valid email address")).toBeInTheDocument();
    expect(calls.some((c) => c.url === "/api/forgot-password")).toBe(false);
  });
});

describe("reset and set password", () => {
  const validReset = { valid: true, purpose: "reset", email: "coach@gym.nz", name: "Casey Coach" };

  it("checks the link first, then sets the password and sends the person to sign in", async () => {
    const { calls } = mockApi({
      "GET /api/me": noSession,
      "POST /api/validate-link": validReset,
      "POST /api/reset-password": {
        message: "Your password is set. Sign in with it now.",
        email: "coach@gym.nz",
      },
    });
    const { user, location } = renderApp("/reset-password?token=tok-1");
    expect(await screen.findByRole("heading", { name: "Choose a new password" })).toBeInTheDocument();
    expect(screen.getByText("coach@gym.nz")).toBeInTheDocument();
    expect(calls.find((c) => c.url === "/api/validate-link")?.body).toEqual({ token: "tok-1" });

    await user.type(newPassword(), "a long harbour phrase");
    await user.type(confirmation(), "a long harbour phrase");
    await user.click(screen.getByRole("button", { name: "Save new password" }));

    expect(await screen.findByText("Your password is set. Sign in with it now.")).toBeInTheDocument();
    expect(location()).toBe("/login?email=coach%40gym.nz");
    expect(calls.find((c) => c.url === "/api/reset-password")?.body).toEqual({
      token: "tok-1",
      password: "a long harbour phrase",
      password_confirmation: "a long harbour phrase",
    });
  });

  it("asks for 10+ characters and a matching confirmation before sending", async () => {
    const { calls } = mockApi({ "GET /api/me": noSession, "POST /api/validate-link": validReset });
    const { user } = renderApp("/reset-password?token=tok-1");
    await user.type(await screen.findByLabelText(/^New password/, { selector: "input" }), "short");
    await user.type(confirmation(), "shorter");
    await user.click(screen.getByRole("button", { name: "Save new password" }));
    expect(await screen.findByText("Use at least 10 characters")).toBeInTheDocument();
    expect(screen.getByText("The value must be equal to the other value")).toBeInTheDocument();
    expect(calls.some((c) => c.url === "/api/reset-password")).toBe(false);
  });

  it("puts the server's password rules on the field", async () => {
    mockApi({
      "GET /api/me": noSession,
      "POST /api/validate-link": validReset,
      "POST /api/reset-password": () =>
        jsonResponse(
          {
            message: "That password is too common. Choose one that is harder to guess.",
            errors: { password: ["That password is too common. Choose one that is harder to guess."] },
          },
          422,
        ),
    });
    const { user } = renderApp("/reset-password?token=tok-1");
    await user.type(await screen.findByLabelText(/^New password/, { selector: "input" }), "1234567890");
    await user.type(confirmation(), "1234567890");
    await user.click(screen.getByRole("button", { name: "Save new password" }));
    expect(
      await screen.findByText("That password is too common. Choose one that is harder to guess."),
    ).toBeInTheDocument();
    expect(newPassword()).toHaveAccessibleDescription(/too common/);
  });

  it("says clearly when the link has expired or was used, and offers a new one", async () => {
    mockApi({ "GET /api/me": noSession, "POST /api/validate-link": { valid: false } });
    renderApp("/reset-password?token=old");
    expect(
      await screen.findByRole("heading", { name: "This link has expired or was already used" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Request a new link" })).toHaveAttribute(
      "href",
      "/forgot-password",
    );
  });

  it("treats a link without a token as dead", async () => {
    const { calls } = mockApi({ "GET /api/me": noSession });
    renderApp("/set-password");
    expect(
      await screen.findByRole("heading", { name: "This link has expired or was already used" }),
    ).toBeInTheDocument();
    expect(calls.some((c) => c.url === "/api/validate-link")).toBe(false);
  });

  it("switches to the dead-link state when the link is used up while the form is open", async () => {
    mockApi({
      "GET /api/me": noSession,
      "POST /api/validate-link": validReset,
      "POST /api/reset-password": () =>
        jsonResponse(
          {
            message: "This link has expired or has already been used. Ask for a new one.",
            errors: { token: ["This link has expired or has already been used. Ask for a new one."] },
          },
          422,
        ),
    });
    const { user } = renderApp("/reset-password?token=tok-1");
    await user.type(
      await screen.findByLabelText(/^New password/, { selector: "input" }),
      "a long harbour phrase",
    );
    await user.type(confirmation(), "a long harbour phrase");
    await user.click(screen.getByRole("button", { name: "Save new password" }));
    expect(
      await screen.findByRole("heading", { name: "This link has expired or was already used" }),
    ).toBeInTheDocument();
  });

  it("welcomes an invited person after they set their password, then leads to sign in", async () => {
    mockApi({
      "GET /api/me": noSession,
      "POST /api/validate-link": { valid: true, purpose: "invite", email: "new@gym.nz", name: "Nova New" },
      "POST /api/reset-password": {
        message: "Your password is set. Sign in with it now.",
        email: "new@gym.nz",
      },
    });
    const { user, location } = renderApp("/set-password?token=inv-1");
    expect(await screen.findByRole("heading", { name: "Set your password" })).toBeInTheDocument();
    expect(screen.getByText(/Welcome, Nova New/)).toBeInTheDocument();
    await user.type(newPassword(), "a long harbour phrase");
    await user.type(confirmation(), "a long harbour phrase");
    await user.click(screen.getByRole("button", { name: "Set password and continue" }));

    expect(await screen.findByRole("heading", { name: "Welcome aboard" })).toBeInTheDocument();
    expect(location()).toBe("/welcome?email=new%40gym.nz");
    expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute(
      "href",
      "/login?email=new%40gym.nz",
    );
  });
});
