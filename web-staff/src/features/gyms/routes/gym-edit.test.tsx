import { AuthProvider } from "@gym/web/auth";
import { jsonResponse, mockFetch, type RecordedCall, renderWithProviders } from "@gym/web/testing";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { browserNavigation } from "../api/gyms";
import { adminUser, gym } from "../test-support";
import { GymEditRoute } from "./gym-edit";

afterEach(() => vi.unstubAllGlobals());

function serve(extra: (call: RecordedCall) => Response | undefined = () => undefined) {
  return mockFetch((call) => {
    const answer = extra(call);
    if (answer) return answer;
    if (call.url === "/api/me") return jsonResponse({ data: adminUser });
    if (call.url === "/api/gyms/g1" && call.method === "GET") return jsonResponse({ data: gym() });
    if (call.url.endsWith("/access-control/integration")) return jsonResponse({ data: null });
    return jsonResponse({ message: "Not found" }, 404);
  });
}

const render = () =>
  renderWithProviders(
    <AuthProvider>
      <GymEditRoute />
    </AuthProvider>,
    { route: "/gyms/g1/edit", path: "/gyms/:id/edit" },
  );

describe("gym edit page", () => {
  it("asks for the account number twice and refuses a mismatch before calling the API", async () => {
    const { calls } = serve((call) =>
      call.method === "PUT"
        ? jsonResponse({
            data: gym({
              destination_account: {
                id: "a1",
                name: "Harbour Ltd",
                bank_account_number: "••-••••-•••1323-50",
              },
            }),
          })
        : undefined,
    );
    const { user } = render();
    const form = await screen.findByRole("form", { name: "Destination account" });
    await user.click(within(form).getByRole("button", { name: "Save account" }));
    expect(await within(form).findAllByText("Value is required")).toHaveLength(3);

    await user.type(within(form).getByLabelText(/Account name/), "Harbour Ltd");
    await user.type(within(form).getByLabelText(/^Bank account number/), "12-3140-0171323-50");
    await user.type(within(form).getByLabelText(/Repeat bank account number/), "12-3140-0171323-51");
    await user.click(within(form).getByRole("button", { name: "Save account" }));
    expect(await within(form).findByText("The value must be equal to the other value")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "PUT")).toHaveLength(0);

    const repeat = within(form).getByLabelText(/Repeat bank account number/);
    await user.clear(repeat);
    await user.type(repeat, "12-3140-0171323-50");
    await user.click(within(form).getByRole("button", { name: "Save account" }));
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(1));
    const put = calls.find((c) => c.method === "PUT")!;
    expect(put.url).toBe("/api/gyms/g1/destination-accounts/new");
    expect(put.body).toEqual({
      name: "Harbour Ltd",
      bank_account_number: "12-3140-0171323-50",
      bank_account_number_confirmation: "12-3140-0171323-50",
    });
    expect(await screen.findByTestId("masked-account")).toHaveTextContent("••-••••-•••1323-50");
  });

  it("shows the server's 422 message on the field", async () => {
    serve((call) =>
      call.method === "PUT" && call.url.includes("destination-accounts")
        ? jsonResponse(
            {
              message: "The value is not a valid New Zealand bank account number",
              errors: { bank_account_number: ["The value is not a valid New Zealand bank account number"] },
            },
            422,
          )
        : undefined,
    );
    const { user } = render();
    const form = await screen.findByRole("form", { name: "Destination account" });
    await user.type(within(form).getByLabelText(/Account name/), "Harbour Ltd");
    await user.type(within(form).getByLabelText(/^Bank account number/), "12-3140-0171324-50");
    await user.type(within(form).getByLabelText(/Repeat bank account number/), "12-3140-0171324-50");
    await user.click(within(form).getByRole("button", { name: "Save account" }));
    expect(
      await within(form).findByText("The value is not a valid New Zealand bank account number"),
    ).toBeInTheDocument();
  });

  it("requires the gym name (trimmed)", async () => {
    const { calls } = serve();
    const { user } = render();
    const form = await screen.findByRole("form", { name: "Gym details" });
    const name = within(form).getByLabelText(/^Name/);
    await user.clear(name);
    await user.type(name, "   ");
    await user.click(within(form).getByRole("button", { name: "Save details" }));
    expect(await within(form).findByText("Value is required")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "PUT")).toHaveLength(0);
  });

  it("sends the admin to the card provider's page to connect", async () => {
    const assign = vi.spyOn(browserNavigation, "assign").mockImplementation(() => {});
    serve((call) =>
      call.url === "/api/gyms/g1/stripe/redirect"
        ? jsonResponse({ data: { url: "https://connect.example/authorize?state=s" } })
        : undefined,
    );
    const { user } = render();
    const section = await screen.findByRole("region", { name: "Card payments" });
    expect(within(section).getByText("Not connected")).toBeInTheDocument();
    await user.click(within(section).getByRole("button", { name: "Connect Stripe" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("https://connect.example/authorize?state=s"));
  });

  it("offers organisation admins to connect door access when it is not connected", async () => {
    serve();
    render();
    const section = await screen.findByRole("region", { name: "Place and doors" });
    expect(await within(section).findByLabelText(/Kisi API key/)).toBeInTheDocument();
  });

  it("shows the Kisi webhook address once after connecting, and a new one on request", async () => {
    let connected = false;
    const integration = (extra: Record<string, unknown> = {}) => ({
      id: "i1",
      integration_type: "kisi",
      api_key: { set: true, masked: "••••1234" },
      connected_at: "2026-01-01T00:00:00Z",
      webhook_secret_set_at: "2026-01-01T00:00:00Z",
      ...extra,
    });
    const { calls } = serve((call) => {
      if (call.url.endsWith("/access-control/integration") && call.method === "POST") {
        connected = true;
        return jsonResponse({
          data: integration({ webhook_url: "https://staff.example/api/webhooks/kisi/first" }),
        });
      }
      if (call.url.endsWith("/access-control/integration"))
        return jsonResponse({ data: connected ? integration() : null });
      if (call.url.endsWith("/access-control/webhook-secret"))
        return jsonResponse({
          data: integration({ webhook_url: "https://staff.example/api/webhooks/kisi/second" }),
        });
      if (call.url.endsWith("/access-control/places")) return jsonResponse({ data: [] });
      return undefined;
    });
    const { user } = render();
    const section = await screen.findByRole("region", { name: "Place and doors" });
    await user.type(await within(section).findByLabelText(/Kisi API key/), "kisi_abc_1234");
    await user.click(within(section).getByRole("button", { name: "Connect Kisi" }));
    expect(
      await within(section).findByText("https://staff.example/api/webhooks/kisi/first"),
    ).toBeInTheDocument();
    await user.click(within(section).getByRole("button", { name: "Make a new webhook address" }));
    expect(
      await within(section).findByText("https://staff.example/api/webhooks/kisi/second"),
    ).toBeInTheDocument();
    expect(within(section).queryByText(/kisi\/first/)).toBeNull();
    expect(calls.filter((c) => c.url.endsWith("/access-control/webhook-secret"))).toHaveLength(1);
  });
});
