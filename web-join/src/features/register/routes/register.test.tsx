import type { JoinOptions } from "@gym/core/contract/registration";
import { touchTheme } from "@gym/web/app";
import { AuthProvider } from "@gym/web/auth";
import { formatDate } from "@gym/web/format";
import { jsonResponse, mockFetch, type RecordedCall, renderWithProviders } from "@gym/web/testing";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { aucklandToday, RegisterRoute } from "./register";

const options: JoinOptions = {
  gym: { uuid: "gym-uuid-1", name: "Harbour Fitness Ponsonby", logo: null },
  organisation: { name: "Harbour Fitness" },
  gyms: [],
  offerings: [
    {
      id: "o1",
      name: "Anytime Membership",
      description: "Train whenever suits you.",
      type_label: "24/7",
      prices: [
        {
          id: "p1",
          label: "$24.00 Weekly",
          amount: 2400,
          formatted_amount: "$24.00",
          billing_frequency: "weekly",
          frequency_label: "Weekly",
          joining_fee: null,
          formatted_joining_fee: null,
          membership_type: "Flexi",
          formatted_term: null,
          private: false,
          kind: "recurring",
          visits: null,
          valid_days: null,
          formatted_pass: null,
          trial_days: null,
          trial_amount: null,
          formatted_trial: null,
        },
      ],
    },
  ],
  selected_price_id: null,
  min_age: 16,
  age_bypass: false,
  takes_cards: true,
  takes_bank: true,
  today: aucklandToday(),
  terms_url: null,
};

function api(overrides: (call: RecordedCall) => Response | undefined = () => undefined) {
  return mockFetch((call) => {
    const answer = overrides(call);
    if (answer) return answer;
    if (call.url.startsWith("/api/me")) return jsonResponse({ message: "Unauthenticated." }, 401);
    if (call.url.startsWith("/api/join")) return jsonResponse({ data: options });
    if (call.url === "/api/unique-email")
      return jsonResponse({ data: { unique: true, is_returning_member: false, message: null } });
    return jsonResponse({ data: { two_factor_required: true, email: "aroha@example.nz" } }, 201);
  });
}

function renderRegister(route = "/?gym=gym-uuid-1") {
  localStorage.clear();
  return renderWithProviders(
    <AuthProvider>
      <RegisterRoute />
    </AuthProvider>,
    {
      route,
      path: "/",
      theme: touchTheme,
      routes: [{ path: "/verification-code", element: <p>verification page</p> }],
    },
  );
}

async function fillIn(user: ReturnType<typeof renderRegister>["user"]) {
  await user.click(screen.getByRole("radio", { name: /Anytime Membership: \$24\.00 Weekly/ }));
  await user.type(screen.getByLabelText(/^Full name/), "aroha te whare");
  await user.type(screen.getByLabelText(/^Email/), "aroha@example.nz");
  await user.type(screen.getByLabelText(/^Mobile number/), "021 123 4567");
  // Day first, as a New Zealander types it (issue 35).
  await user.type(screen.getByLabelText(/^Date of birth/), "15/03/1990");
  await user.type(screen.getByLabelText(/^Password/), "a long passphrase");
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the register page", () => {
  it("shows the gym and its memberships, with the right keyboard for each field", async () => {
    const { calls } = api();
    renderRegister();
    // The gym's name heads the page once its details are here; the heading is the one the
    // prerendered shell in index.html paints before the JavaScript (REGISTER_TITLE).
    expect(
      await within(screen.getByRole("banner")).findByText("Harbour Fitness Ponsonby"),
    ).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 1, name: "Become a member" })).toBeInTheDocument();
    expect(calls.some((c) => c.url === "/api/join?gym=gym-uuid-1")).toBe(true);
    const form = screen.getByRole("form", { name: "Create your account" });
    expect(
      within(form).getByRole("radio", { name: /Anytime Membership: \$24\.00 Weekly/ }),
    ).toBeInTheDocument();
    expect(within(form).getByLabelText(/^Email/)).toHaveAttribute("inputmode", "email");
    expect(within(form).getByLabelText(/^Email/)).toHaveAttribute("autocomplete", "email");
    expect(within(form).getByLabelText(/^Mobile number/)).toHaveAttribute("inputmode", "tel");
    expect(within(form).getByLabelText(/^Date of birth/)).toHaveAttribute("autocomplete", "bday");
    expect(within(form).getByLabelText(/^Password/)).toHaveAttribute("autocomplete", "new-password");
    expect(screen.getByText("You must be at least 16 years old to join online.")).toBeInTheDocument();
  });

  it("takes the dates day first in the UI kit's date inputs, never the browser's (mm/dd/yyyy)", async () => {
    api();
    renderRegister();
    const form = await screen.findByRole("form", { name: "Create your account" });
    expect(form.querySelector('input[type="date"]')).toBeNull();
    expect(within(form).getByLabelText(/^Start date/)).toHaveValue(formatDate(options.today));
    expect(within(form).getByLabelText(/^Date of birth/)).toHaveAttribute("placeholder", "DD/MM/YYYY");
  });

  it("asks for the gym's link when opened without one", async () => {
    const { calls } = api();
    renderRegister("/");
    expect(await screen.findByText("Open your gym's link")).toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith("/api/join"))).toBe(false);
  });

  it("checks the fields with the spec's messages before sending", async () => {
    const { calls } = api();
    const { user } = renderRegister();
    await screen.findByRole("form", { name: "Create your account" });
    await user.type(screen.getByLabelText(/^Email/), "not an email");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect(await screen.findByText("Value is not a valid email address")).toBeInTheDocument();
    expect(screen.getByText("Choose a membership")).toBeInTheDocument();
    expect(screen.getAllByText("Value is required").length).toBeGreaterThanOrEqual(3);
    expect(calls.some((c) => c.url === "/api/register")).toBe(false);
  });

  it("puts the missing-membership message above the cards, where the scroll to the first card lands", async () => {
    api();
    const { user } = renderRegister();
    await screen.findByRole("form", { name: "Create your account" });
    await user.click(screen.getByRole("button", { name: "Create account" }));
    const message = await screen.findByText("Choose a membership");
    const firstCard = screen.getAllByRole("radio")[0];
    // The message comes before the first card in the page, so it is in view with it on a phone.
    expect(message.compareDocumentPosition(firstCard) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("says once, as news and not as an error, when the email already has an account", async () => {
    api((call) =>
      call.url === "/api/unique-email"
        ? jsonResponse({
            data: {
              unique: false,
              is_returning_member: true,
              message: "Welcome back! You already have an account with us. Sign in to rejoin.",
            },
          })
        : undefined,
    );
    const { user } = renderRegister();
    await screen.findByRole("form", { name: "Create your account" });
    await user.type(screen.getByLabelText(/^Email/), "member@example.com");
    await user.tab();
    expect(
      await screen.findByText("Welcome back! You already have an account with us. Sign in to rejoin."),
    ).toBeInTheDocument();
    expect(screen.getAllByText(/already have an account with us|sign in to rejoin/i)).toHaveLength(1);
    expect(screen.getByLabelText(/^Email/)).not.toHaveAttribute("aria-invalid", "true");
  });

  it("shows the server's refusal under the field (an under-age applicant)", async () => {
    api((call) =>
      call.url === "/api/register"
        ? jsonResponse(
            {
              message: "You must be at least 16 years old to join. Please ask the gym for help.",
              errors: { dob: ["You must be at least 16 years old to join. Please ask the gym for help."] },
            },
            422,
          )
        : undefined,
    );
    const { user } = renderRegister();
    await screen.findByRole("form", { name: "Create your account" });
    await fillIn(user);
    await user.click(screen.getByRole("button", { name: "Create account" }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^Date of birth/)).toHaveAttribute("aria-invalid", "true"),
    );
    expect(
      screen.getByText("You must be at least 16 years old to join. Please ask the gym for help."),
    ).toBeInTheDocument();
  });

  it("sends the choice, the link tokens and the person, then asks for the emailed code", async () => {
    const { calls } = api();
    const { user } = renderRegister("/?gym=gym-uuid-1&age_bypass=tok-1");
    await screen.findByRole("form", { name: "Create your account" });
    await fillIn(user);
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect(await screen.findByText("verification page")).toBeInTheDocument();
    expect(calls.find((c) => c.url === "/api/register")).toMatchObject({
      method: "POST",
      body: {
        gym: "gym-uuid-1",
        price_id: "p1",
        age_bypass: "tok-1",
        name: "aroha te whare",
        email: "aroha@example.nz",
        mobile_number: "021 123 4567",
        dob: "1990-03-15",
        start_date: options.today,
        password: "a long passphrase",
      },
    });
  });

  it("offers the organisation's other gyms in the phone's own picker, and opens the chosen one", async () => {
    const gyms = [
      { uuid: "gym-uuid-1", name: "Harbour Fitness Ponsonby" },
      { uuid: "gym-uuid-2", name: "Harbour Fitness Newmarket" },
    ];
    const { calls } = api((call) => {
      if (!call.url.startsWith("/api/join")) return undefined;
      const uuid = new URLSearchParams(call.url.split("?")[1]).get("gym");
      const gym = gyms.find((g) => g.uuid === uuid)!;
      return jsonResponse({ data: { ...options, gyms, gym: { ...gym, logo: null } } });
    });
    const { user } = renderRegister();
    const picker = await screen.findByRole("combobox", { name: "Gym" });
    expect(picker.tagName).toBe("SELECT");
    await user.selectOptions(picker, "Harbour Fitness Newmarket");
    expect(
      await within(screen.getByRole("banner")).findByText("Harbour Fitness Newmarket"),
    ).toBeInTheDocument();
    expect(calls.some((c) => c.url === "/api/join?gym=gym-uuid-2")).toBe(true);
  });
});
