import { jsonResponse } from "@gym/web/testing";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { awaitingCode, mockApi, noSession, renderApp, staffUser } from "../../../app/test-support";

const digit = (n: number) => screen.getByRole("textbox", { name: `Digit ${n} of the sign-in code` });

describe("two-factor page", () => {
  it("checks the code as soon as six digits are typed and moves on to the redirect", async () => {
    let verified = false;
    const { calls } = mockApi({
      "GET /api/me": () => (verified ? jsonResponse({ data: staffUser() }) : awaitingCode()),
      "POST /api/two-factor-authentication": () => {
        verified = true;
        return jsonResponse({ data: { message: "Signed in." } });
      },
    });
    const { user, location } = renderApp("/two-factor-authentication?redirect=%2Fpayments");
    await screen.findByRole("heading", { name: "Check your email" });
    await user.click(digit(1));
    await user.keyboard("123456");
    expect(await screen.findByRole("heading", { level: 1, name: "Payments" })).toBeInTheDocument();
    expect(location()).toBe("/payments");
    expect(calls.find((c) => c.url === "/api/two-factor-authentication")?.body).toEqual({ code: "123456" });
  });

  it("shows the server's message for a wrong code and clears the boxes", async () => {
    mockApi({
      "GET /api/me": awaitingCode,
      "POST /api/two-factor-authentication": () =>
        jsonResponse(
          {
            message: "That code is not right. 4 tries left.",
            errors: { code: ["That code is not right. 4 tries left."] },
          },
          422,
        ),
    });
    const { user } = renderApp("/two-factor-authentication");
    await screen.findByRole("heading", { name: "Check your email" });
    await user.click(digit(1));
    await user.keyboard("999999");
    expect(await screen.findByText("That code is not right. 4 tries left.")).toBeInTheDocument();
    await waitFor(() => expect(digit(1)).toHaveValue(""));
    expect(digit(1)).toHaveAttribute("aria-invalid", "true");
    // The first box has focus again: typing the right code needs no click.
    await waitFor(() => expect(digit(1)).toHaveFocus());
  });

  it("asks for all six digits before checking", async () => {
    const { calls } = mockApi({ "GET /api/me": awaitingCode });
    const { user } = renderApp("/two-factor-authentication");
    await screen.findByRole("heading", { name: "Check your email" });
    await user.click(digit(1));
    await user.keyboard("123");
    await user.click(screen.getByRole("button", { name: "Verify and sign in" }));
    expect(await screen.findByText("Enter the 6-digit code from the email.")).toBeInTheDocument();
    expect(calls.some((c) => c.url === "/api/two-factor-authentication")).toBe(false);
  });

  it("offers a new code only after the 30-second cooldown, and shows a refusal", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockApi({
      "GET /api/me": awaitingCode,
      "POST /api/email/resend": () =>
        jsonResponse({ message: "Too many codes requested. Please wait an hour and try again." }, 429),
    });
    renderApp("/two-factor-authentication");
    expect(await screen.findByRole("button", { name: /Send a new code in \d+s/ })).toBeDisabled();
    for (let second = 0; second < 31; second++) {
      await act(async () => {
        vi.advanceTimersByTime(1000);
      });
    }
    const resend = screen.getByRole("button", { name: "Send a new code" });
    expect(resend).toBeEnabled();
    fireEvent.click(resend);
    expect(
      await screen.findByText("Too many codes requested. Please wait an hour and try again."),
    ).toBeInTheDocument();
  });

  it("sends someone with no session waiting for a code back to sign in", async () => {
    mockApi({ "GET /api/me": noSession });
    const { location } = renderApp("/two-factor-authentication?redirect=%2Fvisits");
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeInTheDocument();
    expect(location()).toBe("/login?redirect=%2Fvisits");
  });
});
