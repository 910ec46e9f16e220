import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";

process.env.UPLOADS_DIR = mkdtempSync(join(tmpdir(), "gym-logos-"));
const api = useSeededApi();

let admin: HttpClient;
let trainer: HttpClient;
let member: HttpClient;
let otherAdmin: HttpClient;
let ponsonby: string;
let newmarket: string;
let harbour: string;

beforeAll(async () => {
  [admin, trainer, member, otherAdmin] = await Promise.all([
    signIn(api.url, "admin@example.com"),
    signIn(api.url, "trainer@example.com"),
    signIn(api.url, "member@example.com"),
    signIn(api.url, "owner@example.org"),
  ]);
  ponsonby = api.seed.gyms.ponsonby.gym_id;
  newmarket = api.seed.gyms.newmarket.gym_id;
  harbour = api.seed.organisations.harbour.organisation_id;
});

const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6,
  0, 0, 0,
]);

function logoForm(bytes: Uint8Array, type: string, name = "logo.png", collection = "logo") {
  const form = new FormData();
  form.append("collection", collection);
  form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), name);
  return form;
}

describe("gyms list and settings", () => {
  it("lists the user's gyms with role, selection, staff and member counts", async () => {
    const gyms = (await admin.get("/api/gyms")).body.data;
    expect(gyms).toHaveLength(2);
    const p = gyms.find((g: { id: string }) => g.id === ponsonby);
    // Staff: the organisation admin, the gym admin (manager) and the trainer; members: the demo member.
    expect(p).toMatchObject({
      name: "Harbour Fitness Ponsonby",
      role: null,
      staff_count: 3,
      members_count: 1,
    });
    expect(gyms.filter((g: { selected: boolean }) => g.selected)).toHaveLength(1);
    const trainerGyms = (await trainer.get("/api/gyms")).body.data;
    expect(trainerGyms).toEqual([
      expect.objectContaining({ id: ponsonby, role: "personal_trainer", selected: true }),
    ]);
  });

  it("shows a gym's settings to admins only; another organisation's gym does not exist", async () => {
    const gym = await admin.get(`/api/gyms/${ponsonby}`);
    expect(gym.status).toBe(200);
    expect(gym.body.data).toMatchObject({
      id: ponsonby,
      name: "Harbour Fitness Ponsonby",
      organisation: { id: harbour, name: "Harbour Fitness" },
      destination_account: null,
      has_payment_account: false,
      branch_secret: { set: false, masked: null },
      break_fee_percentage: "25%",
    });
    expect((await trainer.get(`/api/gyms/${ponsonby}`)).status).toBe(403);
    expect((await member.get(`/api/gyms/${ponsonby}`)).status).toBe(403);
    expect((await otherAdmin.get(`/api/gyms/${ponsonby}`)).status).toBe(404);
  });

  it("renames a gym with trimmed required checks; trainers may not", async () => {
    const blank = await admin.put(`/api/gyms/${newmarket}`, { name: "   " });
    expect(blank.status).toBe(422);
    expect(blank.body.errors).toEqual({ name: ["Value is required"] });
    const ok = await admin.put(`/api/gyms/${newmarket}`, {
      name: "  Harbour Fitness Newmarket  ",
      break_fee_basis_points: 1500,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({
      name: "Harbour Fitness Newmarket",
      break_fee_basis_points: 1500,
      break_fee_percentage: "15%",
    });
    const reset = await admin.put(`/api/gyms/${newmarket}`, {
      name: "Harbour Fitness Newmarket",
      break_fee_basis_points: null,
    });
    expect(reset.body.data.break_fee_basis_points).toBeNull();
    expect((await trainer.put(`/api/gyms/${ponsonby}`, { name: "Mine now" })).status).toBe(403);
    expect((await otherAdmin.put(`/api/gyms/${ponsonby}`, { name: "Mine now" })).status).toBe(404);
  });

  it("never answers 500 to bad bodies", async () => {
    for (const body of ["{not json", "[]", "null", JSON.stringify({ name: 5 })]) {
      const res = await admin.request("PUT", `/api/gyms/${newmarket}`, body);
      expect(res.status, body).toBeGreaterThanOrEqual(400);
      expect(res.status, body).toBeLessThan(500);
    }
  });
});

describe("destination account", () => {
  it("needs the number twice, equal, and a valid NZ account; shows it masked", async () => {
    const empty = await admin.put(`/api/gyms/${ponsonby}/destination-accounts/new`, {
      name: " ",
      bank_account_number: "",
      bank_account_number_confirmation: "",
    });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toMatchObject({
      name: ["Value is required"],
      bank_account_number: ["Value is required"],
      bank_account_number_confirmation: ["Value is required"],
    });

    const mismatch = await admin.put(`/api/gyms/${ponsonby}/destination-accounts/new`, {
      name: "Harbour Fitness Ltd",
      bank_account_number: "12-3140-0171323-50",
      bank_account_number_confirmation: "12-3140-0171323-51",
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors).toEqual({
      bank_account_number_confirmation: ["The value must be equal to the other value"],
    });

    const invalid = await admin.put(`/api/gyms/${ponsonby}/destination-accounts/new`, {
      name: "Harbour Fitness Ltd",
      bank_account_number: "12-3140-0171324-50",
      bank_account_number_confirmation: "12-3140-0171324-50",
    });
    expect(invalid.body.errors).toEqual({
      bank_account_number: ["The value is not a valid New Zealand bank account number"],
    });

    const saved = await admin.put(`/api/gyms/${ponsonby}/destination-accounts/new`, {
      name: "Harbour Fitness Ltd",
      bank_account_number: "12 3140 0171323 50",
      bank_account_number_confirmation: "12-3140-0171323-50",
    });
    expect(saved.status).toBe(200);
    const account = saved.body.data.destination_account;
    expect(account).toEqual({
      id: expect.any(String),
      name: "Harbour Fitness Ltd",
      bank_account_number: "••-••••-•••1323-50",
    });
    expect(JSON.stringify(saved.body)).not.toContain("0171323");

    // Once it exists, it is changed through its id; "new" or another id is not found.
    expect(
      (
        await admin.put(`/api/gyms/${ponsonby}/destination-accounts/new`, {
          name: "x",
          bank_account_number: "01-0902-0068389-00",
          bank_account_number_confirmation: "01-0902-0068389-00",
        })
      ).status,
    ).toBe(404);
    const changed = await admin.put(`/api/gyms/${ponsonby}/destination-accounts/${account.id}`, {
      name: "Harbour Fitness Ltd",
      bank_account_number: "01-0902-0068389-00",
      bank_account_number_confirmation: "01-0902-0068389-00",
    });
    expect(changed.body.data.destination_account).toEqual({
      id: account.id,
      name: "Harbour Fitness Ltd",
      bank_account_number: "••-••••-•••8389-00",
    });
    const valid = {
      name: "Mine now",
      bank_account_number: "01-0902-0068389-00",
      bank_account_number_confirmation: "01-0902-0068389-00",
    };
    expect(
      (await trainer.put(`/api/gyms/${ponsonby}/destination-accounts/${account.id}`, valid)).status,
    ).toBe(403);
  });
});

describe("logo", () => {
  it("stores a PNG and serves it from its content-addressed URL", async () => {
    const res = await admin.post(`/api/gyms/${newmarket}/logo`, logoForm(PNG, "image/png"));
    expect(res.status).toBe(200);
    const url: string = res.body.data.logo;
    expect(url).toMatch(/^\/api\/files\/logos\/.+\.png$/);
    const image = await fetch(api.url + url);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG);
  });

  it("refuses other file types (by content), empty and oversized files, and a wrong collection with 422", async () => {
    const text = await admin.post(
      `/api/gyms/${newmarket}/logo`,
      logoForm(new TextEncoder().encode("hello"), "image/png"),
    );
    expect(text.status).toBe(422);
    expect(text.body.errors.file).toEqual(["The logo must be a PNG, JPEG or WebP image"]);
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(PNG);
    const large = await admin.post(`/api/gyms/${newmarket}/logo`, logoForm(big, "image/png"));
    expect(large.status).toBe(422);
    expect(large.body.errors.file).toEqual(["The logo may be at most 5 MB"]);
    expect(
      (await admin.post(`/api/gyms/${newmarket}/logo`, logoForm(PNG, "image/png", "a.png", "avatar"))).status,
    ).toBe(422);
    expect((await admin.post(`/api/gyms/${newmarket}/logo`, { collection: "logo" })).status).toBe(422);
    expect((await trainer.post(`/api/gyms/${ponsonby}/logo`, logoForm(PNG, "image/png"))).status).toBe(403);
  });
});

describe("branch and bank-feed settings", () => {
  it("stores secrets encrypted and shows them masked; a blank secret keeps the stored one", async () => {
    const res = await admin.put(`/api/gyms/${ponsonby}/branch-config`, {
      branch_app_id: "1234",
      branch_key: "key_test_harbour01",
      branch_secret: "secret_harbour_abcdef",
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      branch_app_id: "1234",
      branch_key: "key_test_harbour01",
      branch_secret: { set: true, masked: "••••cdef" },
    });
    expect(JSON.stringify(res.body)).not.toContain("secret_harbour_abcdef");
    const kept = await admin.put(`/api/gyms/${ponsonby}/branch-config`, {
      branch_app_id: "1235",
      branch_key: "key_test_harbour01",
      branch_secret: "",
    });
    expect(kept.body.data).toMatchObject({
      branch_app_id: "1235",
      branch_secret: { set: true, masked: "••••cdef" },
    });
    const refused = await admin.put(`/api/gyms/${ponsonby}/branch-config`, {
      branch_app_id: "1",
      branch_key: "key_test_x",
      branch_secret: "nope",
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.branch_key).toEqual(["Branch did not accept this key and secret."]);

    const akahu = await admin.put(`/api/gyms/${ponsonby}/akahu-config`, {
      akahu_app_token: "app_token_harbour",
      akahu_app_secret: "app_secret_harbour_9876",
    });
    expect(akahu.body.data).toMatchObject({
      akahu_app_token: "app_token_harbour",
      akahu_app_secret: { set: true, masked: "••••9876" },
    });
    const badToken = await admin.put(`/api/gyms/${ponsonby}/akahu-config`, {
      akahu_app_token: "harbour",
      akahu_app_secret: "",
    });
    expect(badToken.body.errors.akahu_app_token).toEqual(["An Akahu app token starts with app_token_"]);
    expect(
      (
        await trainer.put(`/api/gyms/${ponsonby}/akahu-config`, {
          akahu_app_token: "app_token_x",
          akahu_app_secret: "s",
        })
      ).status,
    ).toBe(403);
  });

  it("sets whether the gym tracks visits", async () => {
    expect(
      (await admin.put(`/api/gyms/${newmarket}/tracks-visits`, { tracks_visits: true })).body.data
        .tracks_visits,
    ).toBe(true);
    expect((await admin.put(`/api/gyms/${newmarket}/tracks-visits`, {})).status).toBe(422);
    expect((await trainer.put(`/api/gyms/${ponsonby}/tracks-visits`, { tracks_visits: true })).status).toBe(
      403,
    );
  });
});

/** Follows the simulated consent page the way a browser would: open it, click the approve link. */
async function consent(url: string): Promise<URL> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const html = await page.text();
  const href = html.match(/class="approve" href="([^"]+)"/)?.[1]?.replaceAll("&amp;", "&");
  expect(href).toBeTruthy();
  const target = href!.startsWith("/") ? new URL(href!, url) : new URL(href!);
  if (target.pathname.startsWith("/api/")) {
    const approve = await fetch(target, { redirect: "manual" });
    expect(approve.status).toBe(302);
    return new URL(approve.headers.get("location")!);
  }
  return target;
}

describe("Stripe Connect (simulated provider)", () => {
  it("runs redirect → consent page → callback → exchange and stores the connected account", async () => {
    const redirect = await admin.post(`/api/gyms/${ponsonby}/stripe/redirect`);
    expect(redirect.status).toBe(200);
    const providerUrl = new URL(redirect.body.data.url);
    const state = providerUrl.searchParams.get("state")!;
    expect(state.split(".")).toHaveLength(3); // a signed JWT
    expect(providerUrl.searchParams.get("redirect_uri")).toMatch(/\/stripe\/callback$/);

    const callback = await consent(api.url + providerUrl.pathname + providerUrl.search);
    expect(callback.pathname).toBe("/stripe/callback");
    expect(callback.searchParams.get("state")).toBe(state);
    const code = callback.searchParams.get("code")!;

    // Someone else's session cannot use this state: not even an admin of the same gym (422), and a
    // trainer is refused by the route's row before the state is read (403, route-policy.ts).
    const gymAdmin = await signIn(api.url, "manager@example.com");
    const stolen = await gymAdmin.post("/api/stripe/exchange", { code, state });
    expect(stolen.status).toBe(422);
    expect(stolen.body.errors.state[0]).toMatch(/expired or is not yours/);
    expect((await trainer.post("/api/stripe/exchange", { code, state })).status).toBe(403);

    const exchanged = await admin.post("/api/stripe/exchange", { code, state });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.data).toMatchObject({
      id: ponsonby,
      has_payment_account: true,
      stripe_id: expect.stringMatching(/^acct_/),
    });

    // A state works once: the replay is refused before Stripe is asked.
    const again = await admin.post("/api/stripe/exchange", { code, state });
    expect(again.status).toBe(422);
    expect(again.body.errors.state[0]).toMatch(/expired or is not yours/);
  });

  it("refuses a tampered state and trainers", async () => {
    const redirect = await admin.post(`/api/gyms/${newmarket}/stripe/redirect`);
    const state: string = new URL(redirect.body.data.url).searchParams.get("state")!;
    const tampered = `${state.slice(0, -3)}abc`;
    expect((await admin.post("/api/stripe/exchange", { code: "ac_sim_x", state: tampered })).status).toBe(
      422,
    );
    expect((await admin.post("/api/stripe/exchange", { code: "", state: "" })).body.errors).toMatchObject({
      code: ["Value is required"],
      state: ["Value is required"],
    });
    expect((await trainer.post(`/api/gyms/${ponsonby}/stripe/redirect`)).status).toBe(403);
  });
});

describe("door access (simulated Kisi)", () => {
  it("connects Kisi with a key it accepts and shows the key masked", async () => {
    expect(
      (await admin.get(`/api/organisations/${harbour}/access-control/integration`)).body.data,
    ).toBeNull();
    const places = await admin.get(`/api/organisations/${harbour}/access-control/places`);
    expect(places.status).toBe(409);
    const refused = await admin.post(`/api/organisations/${harbour}/access-control/integration`, {
      integration_type: "kisi",
      api_key: "wrong-key",
    });
    expect(refused.status).toBe(422);
    const ok = await admin.post(`/api/organisations/${harbour}/access-control/integration`, {
      integration_type: "kisi",
      api_key: "kisi_harbour_key_1234",
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({
      integration_type: "kisi",
      api_key: { set: true, masked: "••••1234" },
    });
    expect(
      (
        await trainer.post(`/api/organisations/${harbour}/access-control/integration`, {
          integration_type: "kisi",
          api_key: "kisi_x",
        })
      ).status,
    ).toBe(403);
    expect((await otherAdmin.get(`/api/organisations/${harbour}/access-control/integration`)).status).toBe(
      404,
    );
  });

  it("links a place to a gym, marks doors as tracking visits, and keeps a place to one gym", async () => {
    const places = (await admin.get(`/api/organisations/${harbour}/access-control/places`)).body.data;
    expect(places.length).toBeGreaterThan(1);
    const place = places[0];
    const doors = (await admin.get(`/api/organisations/${harbour}/access-control/places/${place.id}/doors`))
      .body.data;
    expect(doors[0]).toMatchObject({ integration_type: "kisi", integration: { tracks_visits: false } });

    const linked = await admin.post(`/api/gyms/${ponsonby}/access-control/places`, {
      place_id: place.id,
      doors: [{ id: doors[0].id, tracks_visits: true }],
    });
    expect(linked.status).toBe(200);
    expect(linked.body.data.place).toEqual({ id: place.id, name: place.name, place_id: place.id });
    expect(linked.body.data.doors).toHaveLength(doors.length);
    expect(linked.body.data.doors[0].integration).toMatchObject({
      door_id: doors[0].id,
      tracks_visits: true,
    });

    const after = (await admin.get(`/api/organisations/${harbour}/access-control/places/${place.id}/doors`))
      .body.data;
    expect(after[0].integration.tracks_visits).toBe(true);
    const listed = (await admin.get(`/api/organisations/${harbour}/access-control/places`)).body.data;
    expect(listed.find((p: { id: string }) => p.id === place.id)).toMatchObject({
      gym_id: ponsonby,
      gym_name: "Harbour Fitness Ponsonby",
    });

    const taken = await admin.post(`/api/gyms/${newmarket}/access-control/places`, { place_id: place.id });
    expect(taken.status).toBe(422);
    expect(taken.body.errors.place_id).toEqual(["This place is already linked to Harbour Fitness Ponsonby"]);
    expect(
      (await admin.post(`/api/gyms/${newmarket}/access-control/places`, { place_id: "999999" })).body.errors
        .place_id,
    ).toEqual(["Kisi has no such place"]);
    expect(
      (await trainer.post(`/api/gyms/${ponsonby}/access-control/places`, { place_id: place.id })).status,
    ).toBe(403);
    expect((await trainer.get(`/api/organisations/${harbour}/access-control/places`)).status).toBe(403);
  });
});

describe("bank connection (simulated Akahu)", () => {
  it("gives a member a consent URL, exchanges the code and syncs their accounts", async () => {
    const before = await member.post("/api/akahu/sync-accounts");
    expect(before.status).toBe(409);
    const auth = await member.get(`/api/akahu/auth-url?gym_id=${ponsonby}`);
    expect(auth.status).toBe(200);
    const url = new URL(auth.body.data.url);
    expect(url.searchParams.get("client_id")).toBe("app_token_harbour");
    const callback = await consent(api.url + url.pathname + url.search);
    expect(callback.pathname, callback.toString()).toBe("/connect-akahu");
    const exchange = await member.post("/api/akahu/exchange", {
      code: callback.searchParams.get("code"),
      state: callback.searchParams.get("state"),
    });
    expect(exchange.status, JSON.stringify(exchange.body)).toBe(200);
    expect(exchange.body.data).toEqual({ connected: true, gym_id: ponsonby });
    const accounts = await member.post("/api/akahu/sync-accounts");
    expect(accounts.status).toBe(200);
    // The simulated bank's accounts: ones that pay, lack funds, are closed, settle slowly.
    expect(accounts.body.data.map((a: { name: string }) => a.name)).toEqual([
      "Everyday",
      "Savings",
      "Low balance",
      "Closed account",
      "Slow bank",
    ]);
    expect(accounts.body.data[0]).toMatchObject({ name: "Everyday", status: "ACTIVE" });
  });

  it("refuses return addresses off our sites and gyms out of reach", async () => {
    expect(
      (await member.get(`/api/akahu/auth-url?gym_id=${ponsonby}&redirect_uri=https://evil.example/cb`))
        .status,
    ).toBe(422);
    expect((await member.get(`/api/akahu/auth-url?gym_id=${newmarket}`)).status).toBe(404);
  });
});
