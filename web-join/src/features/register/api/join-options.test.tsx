import { useApi } from "@gym/web/api";
import { jsonResponse, mockFetch, renderWithProviders } from "@gym/web/testing";
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { joinOptionsKey, preloadJoinOptions } from "./join-options";

afterEach(() => {
  vi.unstubAllGlobals();
});

function GymName() {
  const { data } = useApi<{ gym: { name: string } }>(joinOptionsKey({ gym: "g1", price: "p1" }));
  return <p>{data?.gym.name ?? "waiting"}</p>;
}

describe("`/`'s loader", () => {
  it("asks for the link's gym before the page has loaded, and the page uses that answer", async () => {
    const { calls } = mockFetch(() => jsonResponse({ data: { gym: { name: "Harbour Fitness Ponsonby" } } }));
    preloadJoinOptions({ request: new Request("http://join.test/?gym=g1&price=p1") });
    preloadJoinOptions({ request: new Request("http://join.test/?signin=1") });
    expect(calls.map((c) => c.url)).toEqual(["/api/join?gym=g1&price=p1"]);

    renderWithProviders(<GymName />);
    expect(await screen.findByText("Harbour Fitness Ponsonby")).toBeInTheDocument();
    // The page did not ask again: it took the loader's answer.
    expect(calls).toHaveLength(1);
  });

  it("takes the answer index.html's shell asked for (no second request) and waits for it", async () => {
    const { calls } = mockFetch(() => jsonResponse({ data: { gym: { name: "from the API" } } }));
    const key = joinOptionsKey({ gym: "g2" });
    window.__joinOptions = { key, data: Promise.resolve({ gym: { name: "Harbour Fitness Newmarket" } }) };
    const loaded = preloadJoinOptions({ request: new Request("http://join.test/?gym=g2") });
    expect(loaded).toBeInstanceOf(Promise);
    await loaded;
    expect(window.__joinOptions).toBeUndefined();

    function Newmarket() {
      const { data } = useApi<{ gym: { name: string } }>(key);
      return <p>{data?.gym.name ?? "waiting"}</p>;
    }
    renderWithProviders(<Newmarket />);
    expect(await screen.findByText("Harbour Fitness Newmarket")).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
