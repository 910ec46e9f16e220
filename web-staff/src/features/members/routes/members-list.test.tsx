import { paymentKindLabels } from "@gym/core/contract/labels";
import { jsonResponse } from "@gym/web/testing";
import { screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mockApi, renderApp, signedIn, staffUser } from "../../../app/test-support";
import { matchEmptyMediaQuery } from "../../offerings/test-support";
import type { MemberListItem } from "../api/members";
import { membersRoutes } from "./index";

let restoreMatchMedia: () => void;
beforeEach(() => {
  restoreMatchMedia = matchEmptyMediaQuery();
});
afterEach(() => restoreMatchMedia());

const termMember: MemberListItem = {
  id: "u-1",
  name: "Aria Zelinski",
  email: "aria.zelinski.longaddress@example.net",
  joined_at: "2026-10-05T01:00:00Z",
  gym_ids: ["g-ponsonby"],
  tags: [],
  deleted_at: null,
  state: "active",
  card_colour: "green",
  profile_picture: null,
  latest_subscription: {
    id: "s-1",
    state: "active",
    card_colour: "green",
    gym: { id: "g-ponsonby", name: "Harbour Fitness Ponsonby" },
    offering: { id: "o-1", name: "Anytime Membership" },
    price: { id: "p-1", label: "$20.00 Weekly · 12M Term" },
    payment_method: "bank_account",
    membership_type: "12M Term",
  },
};

describe("/members", () => {
  it("says a term once, labels how members pay as everywhere else, and never breaks an email mid-address", async () => {
    mockApi({
      "GET /api/me": signedIn(staffUser()),
      "GET /api/members": () =>
        jsonResponse({ data: [termMember], meta: { next_cursor: null, per_page: 25 } }),
    });
    renderApp("/members", { features: membersRoutes });
    const table = await screen.findByRole("table", {}, { timeout: 10_000 });
    const row = (await within(table).findByText("Aria Zelinski")).closest("tr") as HTMLElement;
    expect(within(row).getAllByText("$20.00 Weekly · 12M Term").length).toBeGreaterThan(0);
    expect(row.textContent).not.toContain("12M Term · 12M Term");
    expect(within(row).getByText(paymentKindLabels.bank_account)).toBeInTheDocument();
    expect(within(row).getByText("5/10/2026")).toBeInTheDocument();
    const email = within(row).getByTestId("member-email");
    expect(email.textContent).toBe(termMember.email);
    // It may wrap only before the "@", never inside the name or the domain.
    expect(email.style.overflowWrap).not.toBe("anywhere");
    expect(email.style.wordBreak).not.toBe("break-all");
    expect(email.querySelectorAll("wbr")).toHaveLength(1);
    expect(email.innerHTML).toMatch(/<wbr>@/);
  });
});
