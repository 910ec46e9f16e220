import { db } from "@gym/core/db/service";
import { adjustUniqueMemberships } from "@gym/core/offering/unique-memberships";
import { recordPriceSubscribed } from "@gym/core/price/service";
import { putRole } from "@gym/core/user/roles";
import { createUser } from "@gym/core/user/service";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { type SeededOfferings, seedOfferings } from "../../local/seed/offerings";

const api = useSeededApi();
let seeded: SeededOfferings;
let admin: HttpClient;
let trainer: HttpClient;
let owner: HttpClient;
let member: HttpClient;
let gymAdmin: HttpClient;

const ids = () => ({
  harbour: api.seed.organisations.harbour.organisation_id,
  ponsonby: api.seed.gyms.ponsonby.gym_id,
  newmarket: api.seed.gyms.newmarket.gym_id,
  dunedin: api.seed.gyms.dunedin.gym_id,
});

const allPermissions = { enable_offerings: true, non_stop: true, limited_access: true };
async function setPermissions(permissions: Partial<typeof allPermissions>) {
  await db()
    .entities.organisation.patch({ organisation_id: ids().harbour })
    .set({ offering_permissions: { ...allPermissions, ...permissions } })
    .go();
}

const limitedHours = {
  name: "Early Birds",
  description: "  Before work  ",
  type: "limited_access",
  all_gyms_access: false,
  gyms: [] as string[],
  hours_mandated: true,
  hours: [
    { day: 3, open_at: "05:30", close_at: "09:00" },
    { day: 1, open_at: "05:30", close_at: "09:00" },
    { day: 2, open_at: "05:30", close_at: "09:00" },
  ],
};

beforeAll(async () => {
  seeded = await seedOfferings(api.seed);
  const person = await createUser({
    email: "gymadmin@example.com",
    name: "gia gym-admin",
    password: "demo-password",
    email_verified: true,
  });
  await putRole({
    organisation_id: api.seed.organisations.harbour.organisation_id,
    user_id: person.user_id,
    gym_roles: [{ gym_id: api.seed.gyms.newmarket.gym_id, role: "admin" }],
  });
  [admin, trainer, owner, member, gymAdmin] = await Promise.all([
    signIn(api.url, "admin@example.com"),
    signIn(api.url, "trainer@example.com"),
    signIn(api.url, "owner@example.org"),
    signIn(api.url, "member@example.com"),
    signIn(api.url, "gymadmin@example.com"),
  ]);
});

afterEach(async () => {
  await setPermissions(allPermissions);
});

describe("reading offerings", () => {
  it("lists the organisation's offerings with the spec's computed fields", async () => {
    const res = await admin.get("/api/offerings");
    expect(res.status).toBe(200);
    // Answered whole: no paging promise (docs/architecture.md "Lists").
    expect(res.body.meta).toBeUndefined();
    const byName = Object.fromEntries(res.body.data.map((o: { name: string }) => [o.name, o]));
    expect(Object.keys(byName)).toEqual(
      expect.arrayContaining(["Anytime Membership", "Off-Peak", "Summer Pass", "Student Saver 2024"]),
    );
    expect(Object.keys(byName)).not.toContain("Strength Unlimited");

    const anytime = byName["Anytime Membership"];
    expect(anytime).toMatchObject({
      type: "24_7",
      type_label: "24/7",
      all_gyms_access: true,
      title_formatted: "Anytime Membership (24/7)",
      subtitle_formatted: "All gyms · 4 prices",
      frequencies_formatted: "Weekly, Fortnightly",
      prices_count: 4,
      subscriptions_count: 0,
      can_delete: true,
      archived_at: null,
      hours: [],
    });
    expect(anytime.gyms.map((g: { name: string }) => g.name)).toEqual(
      expect.arrayContaining(["Harbour Fitness Ponsonby", "Harbour Fitness Newmarket"]),
    );
    // Prices in the spec's frequency order, then by amount.
    expect(anytime.prices.map((p: { label: string }) => p.label)).toEqual([
      "$15.00 Weekly",
      "$20.00 Weekly · 12M Term",
      "$24.00 Weekly",
      "$46.00 Fortnightly",
    ]);

    expect(byName["Summer Pass"].frequencies_formatted).toBe("PIF");
    expect(byName["Summer Pass"].prices[0]).toMatchObject({ frequency_label: "PIF", membership_type: "PIF" });
    expect(byName["Student Saver 2024"].archived_at).toEqual(expect.any(String));
  });

  it("shows hours Monday first as h:mm a, days numbered 1 to 7", async () => {
    const res = await admin.get(`/api/offerings/${seeded.offerings.offPeak.offering_id}`);
    expect(res.status).toBe(200);
    const offPeak = res.body.data;
    expect(offPeak.subtitle_formatted).toBe("Harbour Fitness Ponsonby · 2 prices");
    expect(offPeak.frequencies_formatted).toBe("Weekly, Monthly");
    expect(offPeak.hours.map((h: { day: number }) => h.day)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(offPeak.hours[0]).toMatchObject({
      day: 1,
      day_name: "Monday",
      open_at: "09:00",
      close_at: "16:00",
      open_at_formatted: "9:00 am",
      close_at_formatted: "4:00 pm",
    });
    expect(offPeak.hours[6]).toMatchObject({ day: 7, day_name: "Sunday", close_at_formatted: "1:00 pm" });
    expect(offPeak.hours_formatted).toBe("Mon–Fri 9:00 am – 4:00 pm; Sat–Sun 8:00 am – 1:00 pm");
  });

  it("filters by status", async () => {
    const active = await admin.get("/api/offerings?status=active");
    const archived = await admin.get("/api/offerings?status=archived");
    expect(active.body.data.map((o: { name: string }) => o.name)).not.toContain("Student Saver 2024");
    expect(archived.body.data.map((o: { name: string }) => o.name)).toEqual(["Student Saver 2024"]);
    expect((await admin.get("/api/offerings?status=sideways")).status).toBe(422);
  });

  it("lets a personal trainer read but not create or change offerings (403)", async () => {
    const id = seeded.offerings.anytime.offering_id;
    expect((await trainer.get("/api/offerings")).status).toBe(200);
    expect((await trainer.get(`/api/offerings/${id}`)).status).toBe(200);
    expect((await trainer.get(`/api/offerings/${id}/prices`)).status).toBe(200);
    const create = await trainer.post("/api/offerings", { name: "Mine", type: "24_7" });
    expect(create.status).toBe(403);
    expect(create.body.message).toEqual(expect.any(String));
    expect((await trainer.put(`/api/offerings/${id}`, { name: "Mine", type: "24_7" })).status).toBe(403);
    expect((await trainer.delete(`/api/offerings/${id}/archive`)).status).toBe(403);
    expect((await trainer.delete(`/api/offerings/${id}`)).status).toBe(403);
    const options = await trainer.get("/api/offering-options");
    expect(options.body.data.can_manage).toBe(false);
  });

  it("answers 404 for another organisation's offering, on every call", async () => {
    const id = seeded.offerings.anytime.offering_id;
    expect((await owner.get(`/api/offerings/${id}`)).status).toBe(404);
    expect((await owner.get(`/api/offerings/${id}/prices`)).status).toBe(404);
    expect((await owner.put(`/api/offerings/${id}`, { name: "Taken", type: "24_7" })).status).toBe(404);
    expect((await owner.delete(`/api/offerings/${id}/archive`)).status).toBe(404);
    expect((await owner.delete(`/api/offerings/${id}`)).status).toBe(404);
    expect((await owner.get(`/api/gyms/${ids().ponsonby}/offerings`)).status).toBe(404);
    expect((await owner.get(`/api/gyms/${ids().dunedin}/offerings/${id}/unique-memberships`)).status).toBe(
      404,
    );
    const own = await owner.get("/api/offerings");
    expect(own.body.data.map((o: { name: string }) => o.name)).toEqual(["Strength Unlimited"]);
    // The admin's offering is untouched.
    expect((await admin.get(`/api/offerings/${id}`)).body.data.name).toBe("Anytime Membership");
  });

  it("needs a signed-in staff member", async () => {
    const anonymous = api.client();
    expect((await anonymous.get("/api/offerings")).status).toBe(401);
    expect((await member.get("/api/offerings")).status).toBe(403);
    expect((await member.post("/api/offerings", { name: "x", type: "24_7" })).status).toBe(403);
  });
});

describe("what is offered at a gym", () => {
  it("lists offerings for all gyms or including this one, not archived", async () => {
    const ponsonby = await admin.get(`/api/gyms/${ids().ponsonby}/offerings`);
    expect(ponsonby.status).toBe(200);
    const names = ponsonby.body.data.map((o: { name: string }) => o.name);
    expect(names).toEqual(expect.arrayContaining(["Anytime Membership", "Off-Peak", "Summer Pass"]));
    expect(names).not.toContain("Student Saver 2024");
    const newmarket = await admin.get(`/api/gyms/${ids().newmarket}/offerings`);
    expect(newmarket.body.data.map((o: { name: string }) => o.name)).not.toContain("Off-Peak");
    // Staff see the private price and its link.
    const anytime = ponsonby.body.data.find((o: { name: string }) => o.name === "Anytime Membership");
    const staffRate = anytime.prices.find((p: { private: boolean }) => p.private);
    expect(staffRate.private_links).toHaveLength(1);
  });

  it("shows a member only public prices, and only at their gyms", async () => {
    const res = await member.get(`/api/gyms/${ids().ponsonby}/offerings`);
    expect(res.status).toBe(200);
    const anytime = res.body.data.find((o: { name: string }) => o.name === "Anytime Membership");
    expect(anytime.prices.some((p: { private: boolean }) => p.private)).toBe(false);
    expect(anytime.prices.every((p: { private_links: unknown[] }) => p.private_links.length === 0)).toBe(
      true,
    );
    expect((await member.get(`/api/gyms/${ids().newmarket}/offerings`)).status).toBe(404);
  });
});

describe("creating and changing offerings", () => {
  it("creates a Limited Hours offering with hours and a gym selection", async () => {
    const res = await admin.post("/api/offerings", { ...limitedHours, gyms: [ids().newmarket] });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: "Early Birds",
      description: "Before work",
      type: "limited_access",
      type_label: "Limited Hours",
      all_gyms_access: false,
      gyms: [{ id: ids().newmarket, name: "Harbour Fitness Newmarket" }],
      hours_mandated: true,
      prices: [],
      prices_count: 0,
      frequencies_formatted: "No prices",
      subtitle_formatted: "Harbour Fitness Newmarket · 0 prices",
    });
    expect(res.body.data.hours.map((h: { day: number }) => h.day)).toEqual([1, 2, 3]);
    expect(res.body.data.hours[0].open_at_formatted).toBe("5:30 am");
    const read = await admin.get(`/api/offerings/${res.body.data.id}`);
    expect(read.body.data.hours_formatted).toBe("Mon–Wed 5:30 am – 9:00 am");
  });

  it("answers 422 with the spec's messages", async () => {
    const empty = await admin.post("/api/offerings", {});
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toMatchObject({ name: ["Value is required"], type: ["Value is required"] });

    const blank = await admin.post("/api/offerings", { name: "   ", type: "24_7" });
    expect(blank.body.errors.name).toEqual(["Value is required"]);

    const noGyms = await admin.post("/api/offerings", {
      name: "Somewhere",
      type: "24_7",
      all_gyms_access: false,
      gyms: [],
    });
    expect(noGyms.status).toBe(422);
    expect(noGyms.body.errors.gyms).toEqual(["Select at least one gym"]);

    const noDays = await admin.post("/api/offerings", { ...limitedHours, gyms: [ids().ponsonby], hours: [] });
    expect(noDays.body.errors.hours).toEqual(["Add at least one day"]);
    // Hours are optional when they are not mandated.
    const optional = await admin.post("/api/offerings", {
      ...limitedHours,
      gyms: [ids().ponsonby],
      hours: [],
      hours_mandated: false,
    });
    expect(optional.status).toBe(201);

    const badRows = await admin.post("/api/offerings", {
      ...limitedHours,
      gyms: [ids().ponsonby],
      hours: [
        { day: 1, open_at: "", close_at: "09:00" },
        { day: 2, open_at: "10:00", close_at: "09:00" },
        { open_at: "06:00", close_at: "7pm" },
        { day: 9, open_at: "06:00", close_at: "07:00" },
      ],
    });
    expect(badRows.status).toBe(422);
    expect(badRows.body.errors).toMatchObject({
      "hours.0.open_at": ["Value is required"],
      "hours.1.close_at": ["Close time must be after open time"],
      "hours.2.day": ["Value is required"],
      "hours.2.close_at": ["Enter a time as HH:mm, for example 06:30"],
      "hours.3.day": ["Choose a day from Monday to Sunday"],
    });

    const foreignGym = await admin.post("/api/offerings", {
      name: "Elsewhere",
      type: "24_7",
      all_gyms_access: false,
      gyms: [ids().dunedin],
    });
    expect(foreignGym.status).toBe(422);
    expect(foreignGym.body.errors.gyms).toEqual(["Select gyms of your organisation"]);
  });

  it("never answers 500 to malformed bodies", async () => {
    for (const body of [
      "{not json",
      "[]",
      "null",
      JSON.stringify({ name: 5, type: [], hours: "x", gyms: {} }),
    ]) {
      const res = await admin.request("POST", "/api/offerings", body);
      expect(res.status, body).toBeGreaterThanOrEqual(400);
      expect(res.status, body).toBeLessThan(500);
    }
  });

  it("updates the whole offering; a 24/7 offering keeps no hours", async () => {
    const created = await admin.post("/api/offerings", { ...limitedHours, gyms: [ids().ponsonby] });
    const id = created.body.data.id;
    const res = await admin.put(`/api/offerings/${id}`, {
      name: "Early Birds Anytime",
      type: "24_7",
      all_gyms_access: true,
      hours: limitedHours.hours,
      prices_mandated: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: "Early Birds Anytime",
      description: null,
      type: "24_7",
      all_gyms_access: true,
      hours: [],
      prices_mandated: true,
      hours_mandated: false,
    });
    expect((await admin.put(`/api/offerings/${id}`, { name: "", type: "24_7" })).body.errors.name).toEqual([
      "Value is required",
    ]);
    expect((await admin.put("/api/offerings/01NOPE", { name: "x", type: "24_7" })).status).toBe(404);
  });

  it("lets a gym admin create offerings", async () => {
    const res = await gymAdmin.post("/api/offerings", {
      name: "Newmarket Nights",
      type: "24_7",
      all_gyms_access: false,
      gyms: [ids().newmarket],
    });
    expect(res.status).toBe(201);
  });
});

describe("the organisation's offering permissions", () => {
  it("offers only the types it allows, enforced on the server (422 on type)", async () => {
    await setPermissions({ non_stop: false });
    const options = await admin.get("/api/offering-options");
    expect(options.body.data.types).toEqual([{ value: "limited_access", label: "Limited Hours" }]);
    const refused = await admin.post("/api/offerings", { name: "Round the clock", type: "24_7" });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.type).toEqual(["24/7 offerings are not enabled for your organisation"]);
    expect((await admin.post("/api/offerings", { ...limitedHours, gyms: [ids().ponsonby] })).status).toBe(
      201,
    );

    // An existing 24/7 offering can still be edited as long as it stays 24/7.
    const edit = await admin.put(`/api/offerings/${seeded.offerings.summer.offering_id}`, {
      name: "Summer Pass",
      description: "Summer training at every Harbour Fitness gym.",
      type: "24_7",
    });
    expect(edit.status).toBe(200);

    await setPermissions({ limited_access: false });
    const limited = await admin.post("/api/offerings", { ...limitedHours, gyms: [ids().ponsonby] });
    expect(limited.body.errors.type).toEqual([
      "Limited Hours offerings are not enabled for your organisation",
    ]);
  });

  it("refuses every change with 403 and a clear message when offerings are turned off", async () => {
    await setPermissions({ enable_offerings: false });
    const refused = await admin.post("/api/offerings", { name: "Anything", type: "24_7" });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/Offerings are turned off for your organisation/);
    const id = seeded.offerings.anytime.offering_id;
    expect((await admin.put(`/api/offerings/${id}`, { name: "Anything", type: "24_7" })).status).toBe(403);
    expect(
      (await admin.post(`/api/offerings/${id}/prices`, { amount: 100, billing_frequency: "weekly" })).status,
    ).toBe(403);
    const staffRate = seeded.prices.staffRate.price_id;
    expect((await admin.post(`/api/prices/${staffRate}/private-links`, {})).status).toBe(403);
    expect((await admin.post(`/api/prices/${staffRate}/restore`)).status).toBe(403);
    // Taking a price off offer still works.
    const fortnightly = seeded.prices.anytimeFortnightly.price_id;
    expect((await admin.delete(`/api/prices/${fortnightly}/archive`)).status).toBe(200);
    await setPermissions(allPermissions);
    expect((await admin.post(`/api/prices/${fortnightly}/restore`)).status).toBe(200);
    await setPermissions({ enable_offerings: false });
    const options = await admin.get("/api/offering-options");
    expect(options.body.data).toMatchObject({ enable_offerings: false, can_manage: false, types: [] });
    // Reading still works.
    expect((await admin.get("/api/offerings")).status).toBe(200);
  });
});

describe("archiving and deleting offerings", () => {
  it("deletes an offering nobody subscribed to, with its prices", async () => {
    const created = await admin.post("/api/offerings", { name: "Short-lived", type: "24_7" });
    const id = created.body.data.id;
    const price = await admin.post(`/api/offerings/${id}/prices`, {
      amount: 1000,
      billing_frequency: "weekly",
    });
    await admin.post(`/api/prices/${price.body.data.id}/private-links`, {});
    const res = await admin.delete(`/api/offerings/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id, deleted: true });
    expect((await admin.get(`/api/offerings/${id}`)).status).toBe(404);
    const prices = await admin.get(`/api/organisations/${ids().harbour}/prices?include_archived=true`);
    expect(prices.body.data.map((p: { id: string }) => p.id)).not.toContain(price.body.data.id);
  });

  it("archives instead once a price was subscribed to (409 on delete), and stops offering it", async () => {
    const created = await admin.post("/api/offerings", { name: "Popular", type: "24_7" });
    const id = created.body.data.id;
    const price = await admin.post(`/api/offerings/${id}/prices`, {
      amount: 1000,
      billing_frequency: "weekly",
    });
    await recordPriceSubscribed(ids().harbour, price.body.data.id);

    const shown = await admin.get(`/api/offerings/${id}`);
    expect(shown.body.data).toMatchObject({ subscriptions_count: 1, can_delete: false });

    const refused = await admin.delete(`/api/offerings/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      "This offering has members, so it cannot be deleted. Archive it instead.",
    );

    const archived = await admin.delete(`/api/offerings/${id}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.body.data.archived_at).toEqual(expect.any(String));
    expect(archived.body.data.prices[0].offered).toBe(false);
    // Archiving again keeps the first date.
    expect((await admin.delete(`/api/offerings/${id}/archive`)).body.data.archived_at).toBe(
      archived.body.data.archived_at,
    );

    const atGym = await admin.get(`/api/gyms/${ids().ponsonby}/offerings`);
    expect(atGym.body.data.map((o: { id: string }) => o.id)).not.toContain(id);
    const addPrice = await admin.post(`/api/offerings/${id}/prices`, {
      amount: 1000,
      billing_frequency: "weekly",
    });
    expect(addPrice.status).toBe(409);
  });
});

describe("unique memberships", () => {
  it("counts distinct members holding a subscription to the offering at the gym", async () => {
    const id = seeded.offerings.offPeak.offering_id;
    const path = `/api/gyms/${ids().ponsonby}/offerings/${id}/unique-memberships`;
    const before = await trainer.get(path);
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual({ gym_id: ids().ponsonby, offering_id: id, unique_memberships: 0 });
    await adjustUniqueMemberships(ids().harbour, id, ids().ponsonby, 1);
    await adjustUniqueMemberships(ids().harbour, id, ids().ponsonby, 1);
    await adjustUniqueMemberships(ids().harbour, id, ids().ponsonby, -1);
    expect((await admin.get(path)).body.data.unique_memberships).toBe(1);
    expect(
      (await admin.get(`/api/gyms/${ids().newmarket}/offerings/${id}/unique-memberships`)).body.data
        .unique_memberships,
    ).toBe(0);
    expect((await admin.get(`/api/gyms/${ids().ponsonby}/offerings/01NOPE/unique-memberships`)).status).toBe(
      404,
    );
  });
});

describe("gym scope: a gym admin manages only offerings limited to gyms they administer", () => {
  // manager@example.com administers Ponsonby only (docs/access-control.md "Gym scope").
  let ponsonbyAdmin: HttpClient;
  const limitedTo = async (name: string, gyms: string[]) => {
    const res = await admin.post("/api/offerings", { name, type: "24_7", all_gyms_access: false, gyms });
    expect(res.status).toBe(201);
    const price = await admin.post(`/api/offerings/${res.body.data.id}/prices`, {
      amount: 1_000,
      billing_frequency: "weekly",
    });
    expect(price.status).toBe(201);
    return { id: res.body.data.id as string, priceId: price.body.data.id as string };
  };
  beforeAll(async () => {
    ponsonbyAdmin = await signIn(api.url, "manager@example.com");
  });

  it("refuses (403) another gym's offering, a shared one and the organisation-wide ones; reads stay", async () => {
    const newmarketOnly = await limitedTo("Newmarket Only", [ids().newmarket]);
    const shared = await limitedTo("Both Gyms", [ids().ponsonby, ids().newmarket]);
    const anytime = seeded.offerings.anytime.offering_id;
    const anytimePrice = seeded.prices.anytimeWeekly.price_id;
    const rename = { name: "Taken", type: "24_7", all_gyms_access: false, gyms: [ids().ponsonby] };
    for (const { id, priceId } of [newmarketOnly, shared, { id: anytime, priceId: anytimePrice }]) {
      expect((await ponsonbyAdmin.get(`/api/offerings/${id}`)).status).toBe(200);
      expect((await ponsonbyAdmin.put(`/api/offerings/${id}`, rename)).status).toBe(403);
      expect(
        (
          await ponsonbyAdmin.post(`/api/offerings/${id}/prices`, {
            amount: 100,
            billing_frequency: "weekly",
          })
        ).status,
      ).toBe(403);
      expect(
        (await ponsonbyAdmin.put(`/api/prices/${priceId}`, { amount: 100, billing_frequency: "weekly" }))
          .status,
      ).toBe(403);
      expect((await ponsonbyAdmin.post(`/api/prices/${priceId}/private-links`, {})).status).toBe(403);
      expect((await ponsonbyAdmin.delete(`/api/prices/${priceId}/archive`)).status).toBe(403);
      expect((await ponsonbyAdmin.post(`/api/prices/${priceId}/restore`)).status).toBe(403);
      expect((await ponsonbyAdmin.delete(`/api/prices/${priceId}`)).status).toBe(403);
      expect((await ponsonbyAdmin.delete(`/api/offerings/${id}/archive`)).status).toBe(403);
      expect((await ponsonbyAdmin.delete(`/api/offerings/${id}`)).status).toBe(403);
    }
    // Nothing changed.
    const anytimeNow = (await admin.get(`/api/offerings/${anytime}`)).body.data;
    expect(anytimeNow).toMatchObject({ name: "Anytime Membership", archived_at: null });
    expect((await admin.get(`/api/offerings/${newmarketOnly.id}`)).body.data).toMatchObject({
      name: "Newmarket Only",
      archived_at: null,
    });
    // Nor may they create organisation-wide or other gyms' offerings, or widen their own.
    const create = (body: object) =>
      ponsonbyAdmin.post("/api/offerings", { name: "Mine", type: "24_7", ...body });
    expect((await create({ all_gyms_access: true })).status).toBe(403);
    expect((await create({ all_gyms_access: false, gyms: [ids().newmarket] })).status).toBe(403);
    const own = await limitedTo("Ponsonby Only", [ids().ponsonby]);
    expect(
      (
        await ponsonbyAdmin.put(`/api/offerings/${own.id}`, {
          name: "Everywhere",
          type: "24_7",
          all_gyms_access: true,
        })
      ).status,
    ).toBe(403);
  });

  it("lets them edit, price and archive an offering limited to their own gym", async () => {
    const own = await limitedTo("Ponsonby Mornings", [ids().ponsonby]);
    const created = await ponsonbyAdmin.post("/api/offerings", {
      name: "Ponsonby Evenings",
      type: "24_7",
      all_gyms_access: false,
      gyms: [ids().ponsonby],
    });
    expect(created.status).toBe(201);
    const body = { name: "Ponsonby Early", type: "24_7", all_gyms_access: false, gyms: [ids().ponsonby] };
    expect((await ponsonbyAdmin.put(`/api/offerings/${own.id}`, body)).status).toBe(200);
    const price = await ponsonbyAdmin.post(`/api/offerings/${own.id}/prices`, {
      amount: 1_100,
      billing_frequency: "weekly",
    });
    expect(price.status).toBe(201);
    expect((await ponsonbyAdmin.post(`/api/prices/${price.body.data.id}/private-links`, {})).status).toBe(
      201,
    );
    expect((await ponsonbyAdmin.delete(`/api/prices/${own.priceId}/archive`)).status).toBe(200);
    expect((await ponsonbyAdmin.delete(`/api/offerings/${own.id}/archive`)).status).toBe(200);
    expect((await ponsonbyAdmin.delete(`/api/offerings/${created.body.data.id}`)).status).toBe(200);
  });

  it("keeps organisation-wide age-bypass links with organisation admins (403 for a gym admin)", async () => {
    const harbour = api.seed.organisations.harbour.organisation_id;
    expect((await ponsonbyAdmin.post(`/api/organisations/${harbour}/age-bypass-links`)).status).toBe(403);
    expect((await admin.post(`/api/organisations/${harbour}/age-bypass-links`)).status).toBe(201);
  });
});
