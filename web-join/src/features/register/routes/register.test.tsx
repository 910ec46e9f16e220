import { touchTheme } from "@gym/web/app";
import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RegisterRoute } from "./register";

const PHONE_WIDTH = 375;
let desktopWidth = 1024;

function renderRegister() {
  return renderWithProviders(
    <div data-testid="phone" style={{ width: PHONE_WIDTH }}>
      <RegisterRoute />
    </div>,
    {
      route: "/",
      theme: touchTheme,
      routes: [{ path: "/verification-code", element: <p>verification page</p> }],
    },
  );
}

/** Fills every field; the date of birth through the picker, as a member would. */
async function fillIn(user: ReturnType<typeof renderRegister>["user"]) {
  await user.type(screen.getByLabelText(/^Full name/), "aroha  te whare ");
  await user.type(screen.getByLabelText(/^Email/), "aroha@example.nz");
  await user.type(screen.getByLabelText(/^Mobile number/), "021 123 4567");
  await user.type(screen.getByLabelText(/^Password/), "a long passphrase");
  await user.click(screen.getByRole("button", { name: /^Date of birth/ }));
  const picker = await screen.findByRole("dialog", { name: "Date of birth" });
  // The picker opens on decades; step back to the 1990s.
  while (!within(picker).queryByRole("button", { name: "1990" })) {
    await user.click(within(picker).getByRole("button", { name: "Previous decade" }));
  }
  await user.click(within(picker).getByRole("button", { name: "1990" }));
  await user.click(within(picker).getByRole("button", { name: /^Mar/ }));
  await user.click(within(picker).getByRole("button", { name: /^15 March 1990/ }));
}

describe("register page on a phone", () => {
  beforeEach(() => {
    desktopWidth = window.innerWidth;
    window.innerWidth = PHONE_WIDTH;
  });
  afterEach(() => {
    window.innerWidth = desktopWidth;
  });

  it("renders the labelled sign-up form in a phone-width container", () => {
    renderRegister();
    expect(screen.getByTestId("phone")).toHaveStyle({ width: `${PHONE_WIDTH}px` });
    expect(screen.getByRole("heading", { level: 1, name: "Join the gym" })).toBeInTheDocument();
    const form = screen.getByRole("form", { name: "Create your account" });
    expect(within(form).getByLabelText(/^Full name/)).toHaveAttribute("autocomplete", "name");
    expect(within(form).getByLabelText(/^Email/)).toHaveAttribute("type", "email");
    expect(within(form).getByLabelText(/^Mobile number/)).toHaveAttribute("type", "tel");
    expect(within(form).getByRole("button", { name: /^Date of birth/ })).toBeInTheDocument();
    expect(within(form).getByLabelText(/^Password/)).toHaveAttribute("autocomplete", "new-password");
    expect(within(form).getByRole("button", { name: "Create account" })).toHaveAttribute("type", "submit");
  });

  it("checks the fields before sending", async () => {
    const { calls } = mockFetch(() => jsonResponse({ data: {} }));
    const { user } = renderRegister();
    await user.type(screen.getByLabelText(/^Email/), "not an email");
    await user.type(screen.getByLabelText(/^Password/), "short");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect(await screen.findByText("Value is not a valid email address")).toBeInTheDocument();
    expect(screen.getAllByText("Value is required")).toHaveLength(3);
    expect(screen.getByText("Use at least 10 characters")).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("shows the server's message and field errors when registration fails", async () => {
    mockFetch(() =>
      jsonResponse(
        {
          message: "The email has already been taken.",
          errors: { email: ["The email has already been taken."] },
        },
        422,
      ),
    );
    const { user } = renderRegister();
    await fillIn(user);
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect(await screen.findByText("The email has already been taken.")).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute("aria-invalid", "true");
  });

  it("shows the server's message for other failures", async () => {
    mockFetch(() => jsonResponse({ message: "Registrations are closed for this gym." }, 403));
    const { user } = renderRegister();
    await fillIn(user);
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Registrations are closed for this gym.");
  });

  it("sends the member's details and moves on to the verification code", async () => {
    const { calls } = mockFetch(() => jsonResponse({ data: { two_factor_required: true } }, 201));
    const { user } = renderRegister();
    await fillIn(user);
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect(await screen.findByText("verification page")).toBeInTheDocument();
    expect(calls[0]).toMatchObject({
      url: "/api/register",
      method: "POST",
      body: {
        name: "aroha  te whare",
        email: "aroha@example.nz",
        mobile_number: "021 123 4567",
        dob: "1990-03-15",
        password: "a long passphrase",
      },
    });
  });
});
