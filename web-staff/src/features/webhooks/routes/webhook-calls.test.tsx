import { AuthProvider } from "@gym/web/auth";
import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { adminUser } from "../../gyms/test-support";
import { matchEmptyMediaQuery } from "../../offerings/test-support";
import { WebhookCallsRoute } from "./webhook-calls";
import { WebhooksRoute } from "./webhooks";

let restore: () => void;
beforeEach(() => {
  restore = matchEmptyMediaQuery();
});
afterEach(() => {
  restore();
  vi.unstubAllGlobals();
});

const call = (id: string, extra = {}) => ({
  id,
  provider: "stripe",
  event_type: "account.updated",
  event_id: `evt_${id}`,
  gym_id: null,
  received_at: "2026-01-15T20:00:00Z",
  outcome: "accepted",
  status_code: 200,
  detail: null,
  body: { id: `evt_${id}`, token: "[redacted]" },
  ...extra,
});

describe("webhook debugging pages", () => {
  it("lists calls newest first and pages with the cursor", async () => {
    const { calls } = mockFetch((c) => {
      if (c.url === "/api/me") return jsonResponse({ data: adminUser });
      if (c.url.includes("cursor=c2"))
        return jsonResponse({ data: [call("3")], meta: { next_cursor: null, per_page: 25 } });
      return jsonResponse({
        data: [call("1"), call("2", { outcome: "rejected", status_code: 400 })],
        meta: { next_cursor: "c2", per_page: 25 },
      });
    });
    const { user } = renderWithProviders(
      <AuthProvider>
        <WebhookCallsRoute />
      </AuthProvider>,
      { route: "/webhook-calls" },
    );
    expect(await screen.findByText("evt_1")).toBeInTheDocument();
    expect(screen.getByText("rejected")).toBeInTheDocument();
    expect(screen.getAllByText("16/01/2026 9:00 am")).toHaveLength(2);
    await user.click(screen.getByRole("button", { name: "Older" }));
    expect(await screen.findByText("evt_3")).toBeInTheDocument();
    expect(calls.some((c) => c.url === "/api/webhook-calls?cursor=c2&per_page=25")).toBe(true);
    await user.click(screen.getByRole("button", { name: "Newer" }));
    expect(await screen.findByText("evt_1")).toBeInTheDocument();
  });

  it("shows the organisation's bank-feed webhooks on /webhooks", async () => {
    const { calls } = mockFetch((c) => {
      if (c.url === "/api/me") return jsonResponse({ data: adminUser });
      return jsonResponse({
        data: [call("9", { provider: "akahu", event_type: "PAYMENT.UPDATE" })],
        meta: { next_cursor: null, per_page: 25 },
      });
    });
    renderWithProviders(
      <AuthProvider>
        <WebhooksRoute />
      </AuthProvider>,
      { route: "/webhooks" },
    );
    expect(await screen.findByText("PAYMENT.UPDATE")).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.some((c) => c.url.startsWith("/api/organisations/org1/akahu-webhooks?"))).toBe(true),
    );
  });
});
