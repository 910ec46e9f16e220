import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { addMember, type SeededPayments, seedPayments } from "../../../../../tests/support/payments";

const api = useSeededApi();
let admin: HttpClient;
let trainer: HttpClient;
let outsider: HttpClient;
let member: HttpClient;
let seeded: SeededPayments;
let ponsonby: string;
let newmarket: string;
let mereId: string;
let morganId: string;
let prices: { weekly: string; pif: string; offering: string };

beforeAll(async () => {
  const { seedOfferings } = await import("../../local/seed/offerings");
  const offerings = await seedOfferings(api.seed);
  seeded = await seedPayments(api.seed, offerings, 4);
  prices = {
    weekly: offerings.prices.anytimeWeekly.price_id,
    pif: offerings.prices.summerPif.price_id,
    offering: offerings.prices.anytimeWeekly.offering_id,
  };
  ponsonby = api.seed.gyms.ponsonby.gym_id;
  newmarket = api.seed.gyms.newmarket.gym_id;
  morganId = api.seed.people.member.user_id;
  // A member with macrons and a hyphenated surname, at Newmarket, without a membership.
  const mere = await addMember(api.seed, {
    name: "mēre te-pōtae",
    email: "Mere.Potae@Example.net",
    gymId: newmarket,
  });
  mereId = mere.user.user_id;
  [admin, trainer, outsider, member] = await Promise.all([
    signIn(api.url, "admin@example.com"),
    signIn(api.url, "trainer@example.com"),
    signIn(api.url, "owner@example.org"),
    signIn(api.url, "member@example.com"),
  ]);
});

type Item = {
  id: string;
  name: string;
  email: string;
  state: string;
  card_colour: string | null;
  latest_subscription: { gym: { id: string }; payment_method: string; price: { id: string } } | null;
};

async function everyPage(client: HttpClient, query: string) {
  const rows: Item[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: { status: number; body: any } = await client.get(
      `/api/members?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    rows.push(...res.body.data);
    cursor = res.body.meta.next_cursor;
    pages++;
  } while (cursor && pages < 50);
  return { rows, pages };
}

describe("GET /api/members", () => {
  it("lists the organisation's members by name, title-cased, with their membership state and colour", async () => {
    const res = await admin.get("/api/members");
    expect(res.status).toBe(200);
    const rows = res.body.data as Item[];
    // morgan, mēre, four payers and the PIF member; staff are not members.
    expect(rows).toHaveLength(7);
    expect(rows.map((r) => r.email)).not.toContain("admin@example.com");
    const names = rows.map((r) => r.name);
    expect(names).toContain("Mēre Te-Pōtae");
    expect(names).toContain("Morgan Member");
    expect(names.map((n) => n.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase())).toEqual(
      [...names].map((n) => n.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()).sort(),
    );
    const today = rows.find((r) => r.id === seeded.all[0].userId)!;
    expect(today).toMatchObject({ state: "active", card_colour: "green" });
    const later = rows.find((r) => r.id === seeded.all[1].userId)!;
    expect(later).toMatchObject({ state: "upcoming", card_colour: "amber" });
    expect(rows.find((r) => r.id === morganId)).toMatchObject({ state: "none", latest_subscription: null });
    expect(res.body.meta).toEqual({ next_cursor: null, per_page: 25 });
  });

  it("pages with a cursor: every member once, in name order", async () => {
    const { rows, pages } = await everyPage(admin, "per_page=2");
    expect(pages).toBe(4);
    expect(new Set(rows.map((r) => r.id)).size).toBe(7);
  });

  it("sorts by join date, newest first", async () => {
    const { rows } = await everyPage(admin, "sort=joined&per_page=3");
    expect(rows[0].id).toBe(mereId);
    // A membership starting today dates the join to the start of today, before accounts made today.
    expect([seeded.all[0].userId, seeded.transfer.userId]).toContain(rows.at(-1)!.id);
    expect(rows.findIndex((r) => r.id === morganId)).toBeLessThan(rows.length - 2);
  });

  it("filters by state, gym, offering, price and payment type (through pages)", async () => {
    const upcoming = await everyPage(admin, "state=upcoming&per_page=1");
    expect(upcoming.rows.map((r) => r.id).sort()).toEqual(
      [seeded.all[1].userId, seeded.all[2].userId, seeded.all[3].userId].sort(),
    );
    const none = await everyPage(admin, "state=none");
    expect(none.rows.map((r) => r.id).sort()).toEqual([morganId, mereId].sort());
    const bank = await everyPage(admin, "payment_type=bank_account");
    expect(bank.rows.map((r) => r.id).sort()).toEqual([seeded.all[1].userId, seeded.all[3].userId].sort());
    const pif = await everyPage(admin, "payment_type=pif");
    expect(pif.rows.map((r) => r.id)).toEqual([seeded.transfer.userId]);
    const atNewmarket = await everyPage(admin, `gym_id=${newmarket}`);
    expect(atNewmarket.rows.map((r) => r.id).sort()).toEqual(
      [seeded.all[1].userId, seeded.all[3].userId, mereId].sort(),
    );
    const weekly = await everyPage(admin, `price_id=${prices.weekly}`);
    expect(weekly.rows).toHaveLength(4);
    const offering = await everyPage(admin, `offering_id=${prices.offering}`);
    expect(offering.rows).toHaveLength(4);
  });

  it("shows a trainer only their gym's members; another gym is not found", async () => {
    const { rows } = await everyPage(trainer, "per_page=100");
    expect(rows.map((r) => r.id).sort()).toEqual(
      [morganId, seeded.all[0].userId, seeded.all[2].userId, seeded.transfer.userId].sort(),
    );
    expect((await trainer.get(`/api/members?gym_id=${newmarket}`)).status).toBe(404);
  });

  it("refuses members (403), shows another organisation none of ours, and answers 422 for bad filters", async () => {
    expect((await member.get("/api/members")).status).toBe(403);
    const theirs = await outsider.get("/api/members");
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual([]);
    expect((await outsider.get(`/api/members?gym_id=${ponsonby}`)).status).toBe(404);
    const bad = await admin.get("/api/members?state=happy&per_page=0&sort=height");
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({
      state: ["Choose a membership state"],
      per_page: ["Choose from 1 to 100 per page"],
      sort: ["Sort by name or joined"],
    });
    const forged = await admin.get("/api/members?cursor=bm90LWEtY3Vyc29y");
    expect(forged.status).toBe(422);
    expect(forged.body.errors.cursor).toEqual(["The page cursor is not valid; start from the first page"]);
  });
});

describe("POST /api/members/export", () => {
  const csvRows = (text: string) =>
    text
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\n");

  it("writes every member matching the filters as CSV and redirects to the file", async () => {
    const { call, file } = await admin.exportCsv("/api/members/export", { sort: "name" });
    expect(call.status).toBe(303);
    expect(call.headers.get("location")).toMatch(/^\/exports\/.+\/members-\d{4}-\d{2}-\d{2}\.csv\?/);
    expect(file!.status).toBe(200);
    expect(file!.headers.get("content-disposition")).toMatch(/filename="members-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = csvRows(file!.text);
    expect(lines[0]).toBe(
      "Member ID,Name,Email,Mobile,Joined,State,Gym,Membership,Price,Payment method,Membership type,Tags,Deleted,Trial last day,Promo code,Pass visits used",
    );
    const listed = await everyPage(admin, "per_page=100");
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(listed.rows.map((r) => r.id));
    const mere = lines.find((l) => l.startsWith(mereId))!;
    expect(mere).toContain(",Mēre Te-Pōtae,mere.potae@example.net,");
    expect(mere).toMatch(/,\d{2}\/\d{2}\/\d{4},No membership,/);
  });

  it("applies the filters, and keeps to the organisation", async () => {
    const bank = await admin.exportCsv("/api/members/export", { payment_type: "bank_account" });
    const ids = csvRows(bank.file!.text)
      .slice(1)
      .map((l) => l.split(",")[0]);
    expect(ids.sort()).toEqual([seeded.all[1].userId, seeded.all[3].userId].sort());
    expect(csvRows(bank.file!.text)[1]).toContain(",Bank account,");
    const theirs = await outsider.exportCsv("/api/members/export", {});
    expect(csvRows(theirs.file!.text)).toHaveLength(1);
    expect((await outsider.post("/api/members/export", { gym_id: ponsonby })).status).toBe(404);
  });

  it("is for admins (403 for trainers and members) and checks its filters (422)", async () => {
    expect((await trainer.post("/api/members/export", {})).status).toBe(403);
    expect((await member.post("/api/members/export", {})).status).toBe(403);
    const bad = await admin.post("/api/members/export", { state: "happy" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ state: ["Choose a membership state"] });
  });
});

describe("GET /api/members/{id}", () => {
  it("answers the member's fields with the latest subscription and its derived states", async () => {
    const res = await admin.get(`/api/members/${seeded.all[1].userId}`);
    expect(res.status).toBe(200);
    const m = res.body.data;
    expect(m).toMatchObject({
      id: seeded.all[1].userId,
      name: "Payer 001 Bank",
      email: "payer1@example.net",
      state: "upcoming",
      notes: null,
      tags: [],
      deleted_at: null,
      gyms: [{ id: newmarket, name: "Harbour Fitness Newmarket" }],
      emergency_contact: { name: null, email: null, mobile_number: null, relationship: null },
    });
    expect(m.latest_subscription).toMatchObject({
      is_upcoming: true,
      is_active: false,
      card_colour: "amber",
      membership_type: "Flexi",
      payment_method: "bank_account",
      gym: { id: newmarket },
    });
    expect(m.latest_subscription.upcoming_payment.amount).toBe(2_400);
    expect(m.default_payment_type).toMatchObject({ type: "bank_account" });
    expect(m.recent_payments.length).toBeGreaterThan(0);
  });

  it("is not found for a trainer outside the member's gym, for another organisation and for staff ids", async () => {
    expect((await trainer.get(`/api/members/${seeded.all[0].userId}`)).status).toBe(200);
    expect((await trainer.get(`/api/members/${seeded.all[1].userId}`)).status).toBe(404);
    expect((await outsider.get(`/api/members/${seeded.all[0].userId}`)).status).toBe(404);
    expect((await admin.get(`/api/members/${api.seed.people.trainer.user_id}`)).status).toBe(404);
    expect((await admin.get("/api/members/01NOTAMEMBER")).status).toBe(404);
    expect((await member.get(`/api/members/${morganId}`)).status).toBe(403);
  });
});

describe("PUT /api/members/{id}", () => {
  const body = {
    name: "Mēre Te-Pōtae",
    email: "mere.potae@example.net",
    mobile_number: "021 555 0199",
    address: "12 Ponsonby Road",
    city: "Auckland",
    notes: "Knee injury: no deep squats.",
    tags: ["physio", "early-bird", "physio"],
    emergency_contact: { name: "Hemi Pōtae", mobile_number: "021 555 0100", relationship: "Brother" },
  };

  it("saves profile, contact, emergency contact, notes and tags, and logs who changed what", async () => {
    const res = await admin.put(`/api/members/${mereId}`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      notes: "Knee injury: no deep squats.",
      tags: ["physio", "early-bird"],
      mobile_number: "021 555 0199",
      address: "12 Ponsonby Road",
      emergency_contact: { name: "Hemi Pōtae", relationship: "Brother", mobile_number: "021 555 0100" },
    });
    const again = await admin.get(`/api/members/${mereId}`);
    expect(again.body.data.notes).toBe("Knee injury: no deep squats.");
    const activity = await admin.get(`/api/members/${mereId}/activity`);
    expect(activity.status).toBe(200);
    const entry = activity.body.data[0];
    expect(entry).toMatchObject({ kind: "member_updated", by: { name: "Avery Admin" } });
    expect(entry.changes).toContainEqual({ field: "notes", from: null, to: "Knee injury: no deep squats." });
    expect(entry.summary).toMatch(/Notes/);
    // Saving the same again changes nothing and logs nothing.
    await admin.put(`/api/members/${mereId}`, body);
    const after = await admin.get(`/api/members/${mereId}/activity`);
    expect(after.body.data).toHaveLength(activity.body.data.length);
  });

  it("edits notes alone; sending back the title-cased name shown is not a rename", async () => {
    const id = seeded.all[3].userId;
    const res = await admin.put(`/api/members/${id}`, { notes: "Pays on Fridays" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ notes: "Pays on Fridays", name: "Payer 003 Bank" });
    const shown = await admin.put(`/api/members/${id}`, {
      name: "Payer 003 Bank",
      notes: "Pays on Fridays.",
    });
    expect(shown.status).toBe(200);
    const activity = await admin.get(`/api/members/${id}/activity`);
    expect(activity.body.data.slice(0, 2).map((a: { summary: string }) => a.summary)).toEqual([
      "Notes edited",
      "Notes edited",
    ]);
    expect((await admin.post("/api/search", { query: "payer 003" })).body.data).toHaveLength(1);
    const blank = await admin.put(`/api/members/${id}`, { name: "", email: "" });
    expect(blank.status).toBe(422);
    expect(blank.body.errors).toMatchObject({ name: ["Value is required"], email: ["Value is required"] });
  });

  it("answers 422 with the spec's messages", async () => {
    const res = await admin.put(`/api/members/${mereId}`, {
      name: "   ",
      email: "not-an-email",
      mobile_number: "12",
      dob: "2020-13-40",
      tags: ["x".repeat(41)],
      emergency_contact: { email: "nope" },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatchObject({
      name: ["Value is required"],
      email: ["Value is not a valid email address"],
      mobile_number: ["Enter a mobile number of 7 to 15 digits"],
      dob: ["Enter a date as YYYY-MM-DD"],
      "tags.0": ["Tags are at most 40 characters"],
      "emergency_contact.email": ["Value is not a valid email address"],
    });
    // A login email the member has used is theirs (docs/access-control.md "Whose account it is").
    const taken = await admin.put(`/api/members/${mereId}`, { ...body, email: "payer0@example.net" });
    expect(taken.status).toBe(422);
    expect(taken.body.errors.email[0]).toMatch(/^Only the member can change their login email/);
  });

  it("shows staff the member's notification switches but leaves changing them to the member (422)", async () => {
    const before = (await admin.get(`/api/members/${mereId}`)).body.data;
    expect(before).toMatchObject({
      email_notifications_enabled: expect.any(Boolean),
      push_notifications_enabled: expect.any(Boolean),
      payment_reminders: expect.any(Boolean),
    });
    const res = await admin.put(`/api/members/${mereId}`, {
      notes: "Tried to turn reminders off",
      email_notifications_enabled: !before.email_notifications_enabled,
      payment_reminders: !before.payment_reminders,
      push_notifications_enabled: !before.push_notifications_enabled,
    });
    expect(res.status).toBe(422);
    const only = "Only the member can change this, on their membership page.";
    expect(res.body.errors).toEqual({
      email_notifications_enabled: [only],
      payment_reminders: [only],
      push_notifications_enabled: [only],
    });
    const after = (await admin.get(`/api/members/${mereId}`)).body.data;
    expect(after).toMatchObject({
      email_notifications_enabled: before.email_notifications_enabled,
      payment_reminders: before.payment_reminders,
      push_notifications_enabled: before.push_notifications_enabled,
      notes: before.notes,
    });
  });

  it("lets trainers read but not edit (403); another organisation gets 404", async () => {
    const id = seeded.all[0].userId;
    const res = await trainer.put(`/api/members/${id}`, { name: "Payer", email: "payer0@example.net" });
    expect(res.status).toBe(403);
    expect((await outsider.put(`/api/members/${id}`, body)).status).toBe(404);
    expect((await outsider.get(`/api/members/${id}/activity`)).status).toBe(404);
  });

  it("renames in the search index: the new name is found, the old one no longer", async () => {
    const id = seeded.all[2].userId;
    const res = await admin.put(`/api/members/${id}`, { name: "Quinn Ōtaki", email: "payer2@example.net" });
    expect(res.status).toBe(200);
    const found = await admin.post("/api/search", { query: "otak" });
    expect(found.body.data).toEqual([
      { id, name: "Quinn Ōtaki", email: "payer2@example.net", profile_picture: null },
    ]);
    const old = await admin.post("/api/search", { query: "payer 002" });
    expect(old.body.data).toEqual([]);
  });
});

describe("POST /api/search", () => {
  it("finds members by the start of any name word or their email, ignoring case and accents", async () => {
    const byWord = await admin.post("/api/search", { query: "PO" });
    expect(byWord.status).toBe(200);
    expect(byWord.body.data).toContainEqual({
      id: mereId,
      name: "Mēre Te-Pōtae",
      email: "mere.potae@example.net",
      profile_picture: null,
    });
    expect((await admin.post("/api/search", { query: "pōt" })).body.data.map((r: Item) => r.id)).toEqual([
      mereId,
    ]);
    expect((await admin.post("/api/search", { query: "mere.p" })).body.data.map((r: Item) => r.id)).toEqual([
      mereId,
    ]);
    expect((await admin.post("/api/search", { query: "mēre te" })).body.data.map((r: Item) => r.id)).toEqual([
      mereId,
    ]);
    const payers = await admin.post("/api/search", { query: "payer" });
    expect(payers.body.data.length).toBeGreaterThanOrEqual(4);
    expect((await admin.post("/api/search", { query: "zzz" })).body.data).toEqual([]);
    expect((await admin.post("/api/search", { query: "   " })).body.data).toEqual([]);
  });

  it("keeps to the trainer's gyms and the caller's organisation", async () => {
    expect((await trainer.post("/api/search", { query: "mere" })).body.data).toEqual([]);
    expect((await trainer.post("/api/search", { query: "morgan" })).body.data).toHaveLength(1);
    expect((await outsider.post("/api/search", { query: "morgan" })).body.data).toEqual([]);
    expect((await member.post("/api/search", { query: "morgan" })).status).toBe(403);
    const long = await admin.post("/api/search", { query: "x".repeat(101) });
    expect(long.status).toBe(422);
    expect((await admin.post("/api/search", {})).body.errors.query).toEqual(["Value is required"]);
  });
});

describe("DELETE /api/members/{id}", () => {
  it("refuses while the membership still charges (409)", async () => {
    const res = await admin.delete(`/api/members/${seeded.all[0].userId}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      "This member's membership still charges. Cancel it before deleting the member.",
    );
  });

  it("soft-deletes a member without a membership (out of list and search) and restores them", async () => {
    expect((await trainer.delete(`/api/members/${morganId}`)).status).toBe(403);
    expect((await outsider.delete(`/api/members/${morganId}`)).status).toBe(404);
    const res = await admin.delete(`/api/members/${morganId}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: morganId, deleted: true });
    const list = await everyPage(admin, "per_page=100");
    expect(list.rows.map((r) => r.id)).not.toContain(morganId);
    expect((await admin.post("/api/search", { query: "morgan" })).body.data).toEqual([]);
    const deleted = await everyPage(admin, "deleted=only");
    expect(deleted.rows.map((r) => r.id)).toEqual([morganId]);
    const shown = await admin.get(`/api/members/${morganId}`);
    expect(shown.body.data.deleted_at).toBeTruthy();
    const restored = await admin.post(`/api/members/${morganId}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.data.deleted_at).toBeNull();
    expect((await admin.post("/api/search", { query: "morgan" })).body.data).toHaveLength(1);
    const activity = await admin.get(`/api/members/${morganId}/activity`);
    expect(activity.body.data.map((a: { kind: string }) => a.kind).slice(0, 2)).toEqual([
      "member_restored",
      "member_deleted",
    ]);
  });
});

describe("GET /api/members/{id}/activity", () => {
  it("has the sign-up, and lifecycle changes as they happen, with who did them, newest first", async () => {
    const id = seeded.all[0].userId;
    const shown = await admin.get(`/api/members/${id}`);
    const subId = shown.body.data.latest_subscription.id;
    const before = await admin.get(`/api/members/${id}/activity`);
    expect(before.body.data.at(-1)).toMatchObject({ kind: "subscription_created", by: null });
    expect(before.body.data.at(-1).summary).toMatch(/^Joined /);
    const start = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    const end = new Date(Date.now() + 27 * 86_400_000).toISOString().slice(0, 10);
    const paused = await admin.post(`/api/subscriptions/${subId}/pause`, {
      pause_start_at: start,
      pause_end_at: end,
    });
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    const after = await admin.get(`/api/members/${id}/activity?per_page=1`);
    expect(after.body.data).toHaveLength(1);
    expect(after.body.data[0]).toMatchObject({
      kind: "subscription_pause",
      summary: "Membership paused",
      by: { id: api.seed.people.admin.user_id, name: "Avery Admin" },
      subscription_id: subId,
    });
    const next = await admin.get(
      `/api/members/${id}/activity?per_page=1&cursor=${encodeURIComponent(after.body.meta.next_cursor)}`,
    );
    expect(next.body.data[0].id).not.toBe(after.body.data[0].id);
    expect((await admin.get(`/api/members/${id}/activity?cursor=zzz`)).status).toBe(422);
  });

  it("records a bank transfer marked received", async () => {
    const received = await admin.post(`/api/payments/${seeded.transfer.paymentId}/received`);
    expect(received.status).toBe(200);
    const activity = await admin.get(`/api/members/${seeded.transfer.userId}/activity`);
    expect(activity.body.data[0]).toMatchObject({
      kind: "payment_received",
      payment_id: seeded.transfer.paymentId,
      by: { name: "Avery Admin" },
    });
  });
});

describe("the member's photo (staff know members by face)", () => {
  it("is an address a browser can load, on the member page, the list and search", async () => {
    const form = new FormData();
    const jpeg = new Uint8Array([
      0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
    ]);
    form.append("file", new Blob([jpeg], { type: "image/jpeg" }), "me.jpg");
    expect((await member.post("/api/profile-picture", form)).status).toBe(200);

    const page = (await admin.get(`/api/members/${morganId}`)).body.data.profile_picture as string;
    expect(page).toMatch(/^\/api\/files\/profile-pictures\//);
    const served = await admin.get(page);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");

    const list = (await admin.get("/api/members?per_page=100")).body.data as {
      id: string;
      profile_picture: string | null;
    }[];
    expect(list.find((m) => m.id === morganId)?.profile_picture).toBe(page);
    const found = (await admin.post("/api/search", { query: "morgan" })).body.data as {
      id: string;
      profile_picture: string | null;
    }[];
    expect(found.find((m) => m.id === morganId)?.profile_picture).toBe(page);
    // Another organisation's staff cannot load it.
    expect((await outsider.get(page)).status).toBe(404);
  });
});
