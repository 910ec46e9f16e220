import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import { HttpClient } from "../../../../../tests/support/http";

const api = useSeededApi();
let admin: HttpClient;
let trainer: HttpClient;
let outsider: HttpClient;
let harbour: string;
let ponsonby: string;
let newmarket: string;

beforeAll(async () => {
  harbour = api.seed.organisations.harbour.organisation_id;
  ponsonby = api.seed.gyms.ponsonby.gym_id;
  newmarket = api.seed.gyms.newmarket.gym_id;
  [admin, trainer, outsider] = await Promise.all([
    signIn(api.url, "admin@example.com"),
    signIn(api.url, "trainer@example.com"),
    signIn(api.url, "owner@example.org"),
  ]);
});

async function inviteLink(email: string): Promise<string> {
  const mail = await admin.get("/api/dev/mail");
  const message = (mail.body.data as { to: string; subject: string; text: string }[]).find(
    (m) => m.to === email && /invited/.test(m.subject),
  );
  if (!message) throw new Error(`No invitation emailed to ${email}`);
  return decodeURIComponent(/token=([^\s]+)/.exec(message.text)![1]);
}

describe("staff", () => {
  it("lists the organisation's staff with roles and per-gym roles (not members)", async () => {
    const res = await admin.get(`/api/organisations/${harbour}/staff`);
    expect(res.status).toBe(200);
    const rows = res.body.data as { email: string; role: string; gyms: { id: string; role: string }[] }[];
    expect(rows.map((r) => r.email).sort()).toEqual([
      "admin@example.com",
      "manager@example.com",
      "trainer@example.com",
    ]);
    expect(rows.find((r) => r.email === "admin@example.com")).toMatchObject({ role: "admin", gyms: [] });
    expect(rows.find((r) => r.email === "trainer@example.com")).toMatchObject({
      role: "per_gym",
      gyms: [{ id: ponsonby, role: "personal_trainer" }],
      pending_invite: false,
    });
  });

  it("is for organisation admins: trainers 403, another organisation 404", async () => {
    expect((await trainer.get(`/api/organisations/${harbour}/staff`)).status).toBe(403);
    expect((await outsider.get(`/api/organisations/${harbour}/staff`)).status).toBe(404);
    expect((await outsider.get(`/api/staff/${api.seed.people.trainer.user_id}`)).status).toBe(404);
    expect(
      (await outsider.post(`/api/organisations/${harbour}/staff`, { email: "x@example.com", role: "admin" }))
        .status,
    ).toBe(404);
  });

  it("answers 422 with the spec's messages", async () => {
    const empty = await admin.post(`/api/organisations/${harbour}/staff`, { email: " ", role: "" });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toMatchObject({ email: ["Value is required"], role: ["Value is required"] });
    const noGyms = await admin.post(`/api/organisations/${harbour}/staff`, {
      email: "coach@example.net",
      name: "Coach",
      role: "per_gym",
      gyms: [],
    });
    expect(noGyms.body.errors).toMatchObject({ gyms: ["Select at least one gym"] });
    const noName = await admin.post(`/api/organisations/${harbour}/staff`, {
      email: "brand.new@example.net",
      role: "admin",
    });
    expect(noName.status).toBe(422);
    expect(noName.body.errors).toEqual({ name: ["Value is required"] });
    const foreignGym = await admin.post(`/api/organisations/${harbour}/staff`, {
      email: "coach@example.net",
      name: "Coach",
      role: "per_gym",
      gyms: [{ gym_id: api.seed.gyms.dunedin.gym_id, role: "admin" }],
    });
    expect(foreignGym.status).toBe(422);
    expect(foreignGym.body.errors["gyms.0.gym_id"]).toEqual(["Choose one of your gyms."]);
  });

  it("invites a new person (pending until they set a password through the emailed link), then deactivates them", async () => {
    const exists = await admin.post(`/api/organisations/${harbour}/staff-exists`, {
      email: "kahu@example.net",
    });
    expect(exists.body.data).toEqual({ exists: false, is_staff: false, name: null });
    const res = await admin.post(`/api/organisations/${harbour}/staff`, {
      email: "Kahu@Example.net",
      name: "kahu rangi",
      role: "per_gym",
      gyms: [{ gym_id: newmarket, role: "admin" }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      name: "Kahu Rangi",
      email: "kahu@example.net",
      role: "per_gym",
      gyms: [{ id: newmarket, name: "Harbour Fitness Newmarket", role: "admin" }],
      pending_invite: true,
    });
    const id = res.body.data.id;
    const again = await admin.post(`/api/organisations/${harbour}/staff`, {
      email: "kahu@example.net",
      role: "admin",
    });
    expect(again.status).toBe(409);
    expect((await admin.post(`/api/staff/${id}/resend-invitation`)).status).toBe(200);

    const token = await inviteLink("kahu@example.net");
    const guest = new HttpClient(api.url);
    const set = await guest.post("/api/reset-password", {
      token,
      password: "a-long-new-password-42",
      password_confirmation: "a-long-new-password-42",
    });
    expect(set.status, JSON.stringify(set.body)).toBeLessThan(300);
    const kahu = await signIn(api.url, "kahu@example.net", "a-long-new-password-42");
    expect((await kahu.get(`/api/members?gym_id=${newmarket}`)).status).toBe(200);
    expect((await admin.get(`/api/staff/${id}`)).body.data.pending_invite).toBe(false);
    expect((await admin.post(`/api/staff/${id}/resend-invitation`)).status).toBe(409);

    const removed = await admin.delete(`/api/staff/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.data.deleted_at).toBeTruthy();
    // They are no longer staff here; their session is not ended (docs/access-control.md
    // "An organisation's acts stay in the organisation").
    expect((await kahu.get("/api/members")).status).toBe(403);
    expect((await kahu.get("/api/me")).status).toBe(200);
    const list = await admin.get(`/api/organisations/${harbour}/staff`);
    expect(list.body.data.map((r: { id: string }) => r.id)).not.toContain(id);
    expect((await admin.get(`/api/staff/${id}`)).status).toBe(404);
  });

  it("invites an existing person without a name; an admin cannot remove themselves (so the last admin stays)", async () => {
    const exists = await admin.post(`/api/organisations/${harbour}/staff-exists`, {
      email: "member@example.com",
    });
    expect(exists.body.data).toEqual({ exists: true, is_staff: false, name: "Morgan Member" });
    const res = await admin.post(`/api/organisations/${harbour}/staff`, {
      email: "member@example.com",
      role: "personal_trainer",
    });
    expect(res.status).toBe(201);
    // An existing account is invited: nothing is theirs here until they accept.
    expect(res.body.data).toMatchObject({ role: "personal_trainer", pending_invite: true });
    const mail = (await admin.get("/api/dev/mail")).body.data as {
      to: string;
      subject: string;
      text: string;
    }[];
    const invitation = mail.find((m) => m.to === "member@example.com" && /invites you/.test(m.subject));
    const token = decodeURIComponent(/invitation\?token=([^\s]+)/.exec(invitation?.text ?? "")?.[1] ?? "");
    expect((await new HttpClient(api.url).post("/api/invitations/accept", { token })).status).toBe(200);
    const accepted = await admin.get(`/api/staff/${api.seed.people.member.user_id}`);
    expect(accepted.body.data).toMatchObject({ role: "personal_trainer", pending_invite: false });
    expect(accepted.body.data.gyms).toHaveLength(2);
    const self = await admin.delete(`/api/staff/${api.seed.people.admin.user_id}`);
    expect(self.status).toBe(409);
    // Deactivating a staff member who is also a member keeps the membership.
    expect((await admin.delete(`/api/staff/${api.seed.people.member.user_id}`)).status).toBe(200);
    expect((await admin.get(`/api/members/${api.seed.people.member.user_id}`)).status).toBe(200);
    expect((await trainer.delete(`/api/staff/${api.seed.people.admin.user_id}`)).status).toBe(403);
  });
});
