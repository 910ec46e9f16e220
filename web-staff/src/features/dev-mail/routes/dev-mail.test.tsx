import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DevMailRoute, NOT_LOCAL_MESSAGE } from "./dev-mail";

const MAILS = [
  {
    id: "m1",
    to: "older@example.nz",
    subject: "Older mail",
    text: "Plain text body",
    html: null,
    sent_at: "2026-01-15T19:00:00Z",
  },
  {
    id: "m2",
    to: ["coach@gym.nz"],
    subject: "Your sign-in code",
    text: "Your code is 123456",
    html: "<p>Your code is <b>123456</b></p>",
    sent_at: "2026-01-15T20:00:00Z",
  },
];

describe("developer mailbox", () => {
  it("lists the emails newest first and shows the newest", async () => {
    const { calls } = mockFetch(() => jsonResponse({ data: MAILS }));
    const { user } = renderWithProviders(<DevMailRoute />, { route: "/dev/mail" });

    const list = await screen.findByRole("navigation", { name: "Emails" });
    const items = within(list).getAllByRole("button");
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining("Your sign-in code"),
      expect.stringContaining("Older mail"),
    ]);
    expect(items[0]).toHaveTextContent("coach@gym.nz");
    expect(items[0]).toHaveTextContent("16/01/2026 9:00 am");

    const frame = screen.getByTitle("Email: Your sign-in code");
    expect(frame).toHaveAttribute("sandbox", "allow-popups allow-popups-to-escape-sandbox");
    expect(frame.getAttribute("srcdoc")).toContain("<b>123456</b>");
    expect(calls[0].url).toBe("/api/dev/mail");

    await user.click(items[1]);
    expect(await screen.findByText("Plain text body")).toBeInTheDocument();
  });

  it("says so when the API has no mailbox (not running locally)", async () => {
    mockFetch(() => jsonResponse({ message: "Not found" }, 404));
    renderWithProviders(<DevMailRoute />, { route: "/dev/mail" });
    expect(await screen.findByText(NOT_LOCAL_MESSAGE)).toBeInTheDocument();
  });

  it("shows an empty mailbox", async () => {
    mockFetch(() => jsonResponse({ data: [] }));
    renderWithProviders(<DevMailRoute />, { route: "/dev/mail" });
    expect(await screen.findByText("No emails yet")).toBeInTheDocument();
  });
});
