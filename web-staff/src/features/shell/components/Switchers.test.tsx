import type { CurrentUser } from "@gym/web/auth";
import { jsonResponse } from "@gym/web/testing";
import { screen, within } from "@testing-library/react";
import { useEffect } from "react";
import { describe, expect, it } from "vitest";
import { mockApi, renderApp, staffUser, trainer } from "../../../app/test-support";
import { shortGymName } from "./Switchers";

const ponsonby = { id: "g-ponsonby", name: "Harbour Fitness Ponsonby", role: null };
const newmarket = { id: "g-newmarket", name: "Harbour Fitness Newmarket", role: null };
const kiwi = { id: "o-kiwi", name: "Kiwi CrossFit" };
const kiwiGym = { id: "g-kiwi", name: "Kiwi CrossFit Wellington", role: null };

const admin = (): CurrentUser =>
  staffUser({
    organisations: [{ id: "o-harbour", name: "Harbour Fitness" }, kiwi],
    gyms: [ponsonby, newmarket],
    current_gym: { id: "g-ponsonby", role: null },
  });

/** A page that counts how often it was created. */
let mounts = 0;
function CountingPage() {
  useEffect(() => {
    mounts += 1;
  }, []);
  return <h1>Members list</h1>;
}

/** An API that remembers the admin's current organisation and gym, as the real one does. */
function adminApi() {
  let me = admin();
  return mockApi({
    "GET /api/me": () => jsonResponse({ data: me }),
    "POST /api/gyms/g-newmarket/switch": () => {
      me = { ...me, current_gym: { id: "g-newmarket", role: null } };
      return jsonResponse({ data: me });
    },
    "POST /api/organisations/o-kiwi/switch": () => {
      me = {
        ...me,
        current_organisation: { ...kiwi, multi_gym: false, role: "admin" },
        gyms: [kiwiGym],
        current_gym: { id: "g-kiwi", role: null },
      };
      return jsonResponse({ data: me });
    },
  });
}

describe("the top bar switchers", () => {
  it("are not shown to someone with one organisation and one gym", async () => {
    mockApi({ "GET /api/me": () => jsonResponse({ data: trainer() }) });
    renderApp("/dashboard");
    await screen.findByRole("heading", { level: 1, name: /, Taylor$/ });
    expect(screen.queryByRole("button", { name: /^Organisation:/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Gym:/ })).not.toBeInTheDocument();
    expect(screen.getByRole("searchbox", { name: "Search members" })).toBeInTheDocument();
  });

  it("list the person's gyms with a tick on the current one; choosing one switches and reloads the page", async () => {
    const { calls } = adminApi();
    mounts = 0;
    const { user, location } = renderApp("/members", {
      features: [{ path: "members", element: <CountingPage /> }],
    });
    await screen.findByRole("heading", { name: "Members list" });
    expect(mounts).toBe(1);

    const gym = screen.getByRole("button", { name: /^Gym:/ });
    expect(gym).toHaveTextContent("Harbour Fitness Ponsonby");
    await user.click(gym);
    const menu = await screen.findByRole("menu");
    expect(within(menu).getByRole("menuitemradio", { name: "Harbour Fitness Ponsonby" })).toHaveAttribute(
      "aria-checked",
      "true",
    );
    const other = within(menu).getByRole("menuitemradio", { name: "Harbour Fitness Newmarket" });
    expect(other).toHaveAttribute("aria-checked", "false");
    await user.click(other);

    expect(await screen.findByText("Gym switched")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /^Gym:/ })).toHaveTextContent("Harbour Fitness Newmarket");
    expect(calls.some((c) => c.method === "POST" && c.url === "/api/gyms/g-newmarket/switch")).toBe(true);
    expect(location()).toBe("/members");
    expect(mounts).toBe(2);
  });

  it("switch organisation from another page and land on the new organisation's dashboard", async () => {
    adminApi();
    const { user, location } = renderApp("/payments");
    await screen.findByRole("heading", { level: 1, name: "Payments" });

    await user.click(screen.getByRole("button", { name: /^Organisation:/ }));
    await user.click(await screen.findByRole("menuitemradio", { name: "Kiwi CrossFit" }));

    expect(await screen.findByRole("heading", { level: 1, name: /, Avery$/ })).toBeInTheDocument();
    expect(location()).toBe("/dashboard");
    expect(screen.getByRole("button", { name: /^Organisation:/ })).toHaveTextContent("Kiwi CrossFit");
    // Kiwi CrossFit has one gym: the gym switcher goes away.
    expect(screen.queryByRole("button", { name: /^Gym:/ })).not.toBeInTheDocument();
  });

  it("reload the dashboard when the organisation is switched there", async () => {
    adminApi();
    const { user, location } = renderApp("/dashboard");
    await screen.findByText("Harbour Fitness · Harbour Fitness Ponsonby");
    await user.click(screen.getByRole("button", { name: /^Organisation:/ }));
    await user.click(await screen.findByRole("menuitemradio", { name: "Kiwi CrossFit" }));
    expect(await screen.findByText("Kiwi CrossFit · Kiwi CrossFit Wellington")).toBeInTheDocument();
    expect(location()).toBe("/dashboard");
  });

  it("show a gym's short name on a phone", () => {
    expect(shortGymName("Harbour Fitness Ponsonby", "Harbour Fitness")).toBe("Ponsonby");
    expect(shortGymName("Harbour Fitness", "Harbour Fitness")).toBe("Harbour Fitness");
    expect(shortGymName("Downtown Gym", "Harbour Fitness")).toBe("Downtown Gym");
  });
});
