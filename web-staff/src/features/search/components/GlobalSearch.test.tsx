import { jsonResponse, type RecordedCall } from "@gym/web/testing";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { mockApi, renderApp, signedIn, staffUser } from "../../../app/test-support";
import { membersRoutes } from "../../members/routes";

const box = () => screen.getAllByRole("searchbox", { name: "Search members" })[0] as HTMLInputElement;

function searchApi(answer: (query: string) => { id: string; name: string; email: string }[]) {
  const queries: string[] = [];
  const calls = mockApi({
    "GET /api/me": signedIn(staffUser()),
    "POST /api/search": (call: RecordedCall) => {
      const { query } = call.body as { query: string };
      queries.push(query);
      return jsonResponse({ data: answer(query) });
    },
  });
  return { queries, calls };
}

describe("the top bar's member search", () => {
  it("waits 600 ms after the last keystroke, then lists names and emails; choosing one opens the member and clears", async () => {
    const { queries } = searchApi(() => [{ id: "u-1", name: "Aroha Walker", email: "aroha@example.nz" }]);
    const { user, location } = renderApp("/dashboard", { features: membersRoutes });
    await screen.findByRole("heading", { level: 1 });
    const started = Date.now();
    await user.type(box(), "wal");
    // Typing: nothing asked yet, no results shown.
    expect(queries).toEqual([]);
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
    const option = await screen.findByRole("option", { name: /Aroha Walker/ }, { timeout: 3000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    // One search for three keystrokes: the debounce restarts with each.
    expect(queries).toEqual(["wal"]);
    expect(option).toHaveTextContent("aroha@example.nz");
    await user.click(option);
    await waitFor(() => expect(location()).toBe("/members/u-1"));
    expect(box().value).toBe("");
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
  });

  it('says No results found for "{query}" and clears when the box is emptied or on a click outside', async () => {
    searchApi(() => []);
    const { user } = renderApp("/dashboard");
    await screen.findByRole("heading", { level: 1 });
    await user.type(box(), "zzq");
    await screen.findByText('No results found for "zzq"', undefined, { timeout: 3000 });
    await user.clear(box());
    expect(screen.queryByText(/No results found/)).not.toBeInTheDocument();
    await user.type(box(), "abc");
    await screen.findByText('No results found for "abc"', undefined, { timeout: 3000 });
    await user.click(screen.getByRole("heading", { level: 1 }));
    await waitFor(() => expect(screen.queryByText(/No results found/)).not.toBeInTheDocument());
    expect(box().value).toBe("");
  });
});
