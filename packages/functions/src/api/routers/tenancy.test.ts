/**
 * The standing attack on tenancy (issue: "A person's account is theirs, and each organisation sees
 * only what was given to it"), written from docs/access-control.md and data-model.md: an admin of
 * one organisation tries to enrol, edit, invite and read a person of another, step by step as an
 * attacker with nothing but their own admin login would.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { latestCode, signIn, useSeededApi } from "../../../../../tests/support/api";
import { HttpClient } from "../../../../../tests/support/http";

process.env.UPLOADS_DIR = mkdtempSync(join(tmpdir(), "gym-tenancy-"));
const api = useSeededApi();

type Seeded = Awaited<ReturnType<typeof import("../../local/seed/offerings")["seedOfferings"]>>;
let offerings: Seeded;
let harbour: string;
let southern: string;
let ponsonby: string;
let today: string;
let attacker: HttpClient; // organisation admin of Harbour Fitness (organisation A)
let victim: HttpClient; // organisation admin of Southern Strength (organisation B)
const VICTIM = "owner@example.org";

interface Mail {
  to: string;
  subject: string;
  text: string;
}
const mailbox = async () => (await attacker.get("/api/dev/mail")).body.data as Mail[];
const mailTo = async (to: string) => (await mailbox()).filter((m) => m.to === to);
const tokenIn = (mail: Mail | undefined, path: string) => {
  const match = new RegExp(`${path}\\?token=([^\\s)"&]+)`).exec(mail?.text ?? "");
  if (!match) throw new Error(`no ${path} link in ${mail?.subject}`);
  return decodeURIComponent(match[1]);
};

const JPEG = new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
]);

beforeAll(async () => {
  const { seedOfferings } = await import("../../local/seed/offerings");
  const { seedGyms } = await import("../../local/seed/gyms");
  offerings = await seedOfferings(api.seed);
  await seedGyms(api.seed);
  harbour = api.seed.organisations.harbour.organisation_id;
  southern = api.seed.organisations.southern.organisation_id;
  ponsonby = api.seed.gyms.ponsonby.gym_id;
  const { businessToday } = await import("@gym/core/clock");
  today = await businessToday();
  [attacker, victim] = await Promise.all([signIn(api.url, "admin@example.com"), signIn(api.url, VICTIM)]);
  // The attacker's session is in Harbour Fitness (they also run Kiwi CrossFit).
  await attacker.post(`/api/organisations/${harbour}/switch`, {});
});

describe("the takeover of another organisation's admin ends at the first step", () => {
  it("staff-exists answers an account elsewhere exactly as no account", async () => {
    const elsewhere = await attacker.post(`/api/organisations/${harbour}/staff-exists`, { email: VICTIM });
    const nobody = await attacker.post(`/api/organisations/${harbour}/staff-exists`, {
      email: "nobody.at.all@example.net",
    });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.data).toEqual({ exists: false, is_staff: false, name: null });
    expect(elsewhere.body.data).toEqual(nobody.body.data);
    // Someone this organisation knows is still recognised (a member of Harbour).
    const member = await attacker.post(`/api/organisations/${harbour}/staff-exists`, {
      email: "member@example.com",
    });
    expect(member.body.data).toMatchObject({ exists: true, is_staff: false, name: "Morgan Member" });
  });

  it("onboard-pif of an existing account only invites: no member, no charge, no tax invoice", async () => {
    const before = (await mailTo(VICTIM)).length;
    const res = await attacker.post(`/api/organisations/${harbour}/members/onboard-pif`, {
      name: "Anyone",
      email: VICTIM,
      price_id: offerings.prices.summerPif.price_id,
      gym_id: ponsonby,
      payment_method: "cash",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ subscription: null, invitation_pending: true });
    const victimId = res.body.data.member.id as string;
    // Not a member: the member page and the edit are 404, so the login email cannot be touched.
    expect((await attacker.get(`/api/members/${victimId}`)).status).toBe(404);
    const edit = await attacker.put(`/api/members/${victimId}`, { email: "attacker@example.net" });
    expect(edit.status).toBe(404);
    const mails = (await mailTo(VICTIM)).slice(0, (await mailTo(VICTIM)).length - before);
    expect(mails.map((m) => m.subject)).toEqual([expect.stringMatching(/invites you/)]);
    expect(mails.some((m) => /tax invoice|receipt/i.test(m.subject))).toBe(false);
    // A second onboarding while it waits sends nothing more.
    const again = await attacker.post(`/api/organisations/${harbour}/members/onboard-pif`, {
      name: "Anyone",
      email: VICTIM,
      price_id: offerings.prices.summerPif.price_id,
      gym_id: ponsonby,
      payment_method: "cash",
    });
    expect(again.status).toBe(409);
    // Declined from the email: nothing is left, and the victim's own sign-in is untouched.
    const token = tokenIn(
      (await mailTo(VICTIM)).find((m) => /invites you/.test(m.subject)),
      "/invitation",
    );
    expect((await new HttpClient(api.url).post("/api/invitations/decline", { token })).status).toBe(200);
    expect((await new HttpClient(api.url).post("/api/invitations/accept", { token })).status).toBe(422);
    expect((await attacker.get(`/api/members/${victimId}`)).status).toBe(404);
    expect((await victim.get("/api/me")).body.data.current_organisation.id).toBe(southern);
  });

  it("staff cannot change a login email that the person has used", async () => {
    const member = api.seed.people.member.user_id;
    const res = await attacker.put(`/api/members/${member}`, { email: "attacker@example.net" });
    expect(res.status).toBe(422);
    expect(res.body.errors.email[0]).toMatch(/Only the member can change their login email/);
    await signIn(api.url, "member@example.com");
  });

  it("staff may correct a desk typo while the account is theirs alone and never used", async () => {
    const created = await attacker.post(`/api/organisations/${harbour}/members/onboard-pif`, {
      name: "Typo Person",
      email: "typo.persn@example.net",
      price_id: offerings.prices.summerPif.price_id,
      gym_id: ponsonby,
      payment_method: "eftpos",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.invitation_pending).toBe(false);
    const id = created.body.data.member.id as string;
    const fixed = await attacker.put(`/api/members/${id}`, { email: "typo.person@example.net" });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body.data.email).toBe("typo.person@example.net");
    // The old address is free again; the new one cannot be claimed by a second account.
    const taken = await attacker.post(`/api/organisations/${harbour}/members/onboard-pif`, {
      name: "Second",
      email: "typo.person@example.net",
      price_id: offerings.prices.summerPif.price_id,
      gym_id: ponsonby,
      payment_method: "eftpos",
    });
    expect(taken.status).toBe(422);
    const freed = await attacker.post(`/api/organisations/${harbour}/members/onboard-pif`, {
      name: "Old Address",
      email: "typo.persn@example.net",
      price_id: offerings.prices.summerPif.price_id,
      gym_id: ponsonby,
      payment_method: "eftpos",
    });
    expect(freed.status, JSON.stringify(freed.body)).toBe(201);
  });
});

describe("adding another organisation's admin as staff", () => {
  it("needs them to accept; removing the role never signs them out of their own organisation", async () => {
    const invited = await attacker.post(`/api/organisations/${harbour}/staff`, {
      email: VICTIM,
      name: "Olive",
      role: "admin",
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    expect(invited.body.data).toMatchObject({ pending_invite: true, name: "Olive", email: VICTIM });
    // Until they accept, they are not in Harbour Fitness.
    let me = (await victim.get("/api/me")).body.data;
    expect(me.organisations.map((o: { id: string }) => o.id)).not.toContain(harbour);
    const id = invited.body.data.id as string;
    // Withdrawn before an answer: nothing of theirs changes.
    expect((await attacker.delete(`/api/staff/${id}`)).status).toBe(200);
    me = (await victim.get("/api/me")).body.data;
    expect(me.current_organisation.id).toBe(southern);

    // Invited again, and this time accepted from the email.
    expect(
      (
        await attacker.post(`/api/organisations/${harbour}/staff`, {
          email: VICTIM,
          name: "Olive",
          role: "admin",
        })
      ).status,
    ).toBe(201);
    const mail = (await mailTo(VICTIM)).find((m) => /invites you/.test(m.subject));
    const token = tokenIn(mail, "/invitation");
    const peek = await new HttpClient(api.url).post("/api/invitations/peek", { token });
    expect(peek.body.data).toMatchObject({ valid: true, kind: "staff", organisation: "Harbour Fitness" });
    expect((await new HttpClient(api.url).post("/api/invitations/accept", { token })).status).toBe(200);
    me = (await victim.get("/api/me")).body.data;
    expect(me.organisations.map((o: { id: string }) => o.id)).toContain(harbour);
    expect(me.current_organisation.id).toBe(southern);

    // Removed by Harbour: their session at Southern Strength goes on, in Southern Strength.
    expect((await attacker.delete(`/api/staff/${id}`)).status).toBe(200);
    const after = await victim.get("/api/me");
    expect(after.status).toBe(200);
    expect(after.body.data.current_organisation.id).toBe(southern);
    expect((await victim.get(`/api/organisations/${southern}/staff`)).status).toBe(200);
  });

  it("parallel invites of one new address send one invitation", async () => {
    const email = "parallel.coach@example.net";
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        attacker.post(`/api/organisations/${harbour}/staff`, {
          email,
          name: "Parallel Coach",
          role: "admin",
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 201).every((a) => a.status === 409)).toBe(true);
    expect(await mailTo(email)).toHaveLength(1);
  });
});

describe("what a person tells one organisation stays there", () => {
  it("enrolled at two organisations through the join site, each reads only its own", async () => {
    const client = new HttpClient(api.url);
    const email = "two.gyms@example.nz";
    const registered = await client.post(
      "/api/register",
      {
        gym: api.seed.gyms.ponsonby.uuid,
        price_id: offerings.prices.anytimeWeekly.price_id,
        name: "two gyms",
        email,
        mobile_number: "021 111 1111",
        dob: "1990-03-15",
        password: "a long passphrase",
        start_date: today,
      },
      { "X-Forwarded-For": "10.9.0.1" },
    );
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    expect((await client.post("/api/email/verify", { code: await latestCode(client, email) })).status).toBe(
      200,
    );
    expect(
      (
        await client.put("/api/me/register-fields", {
          address: "1 Harbour Road",
          emergency_contact_name: "Harbour Contact",
        })
      ).status,
    ).toBe(200);
    const form = new FormData();
    form.append("file", new Blob([JPEG], { type: "image/jpeg" }), "photo.jpg");
    const photo = await client.post("/api/profile-picture", form);
    expect(photo.status).toBe(200);

    // Joining Southern Strength: the join form offers the Harbour answers, prefilled, unsaved.
    const chosen = await client.put("/api/me/registration", {
      gym: api.seed.gyms.dunedin.uuid,
      price_id: offerings.prices.strengthWeekly.price_id,
      start_date: today,
      dob: "1990-03-15",
    });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    expect(chosen.body.data.register_fields).toMatchObject({
      address: "1 Harbour Road",
      from_another_organisation: true,
    });
    expect(chosen.body.data.profile_picture).toBeNull();
    expect(
      (
        await client.put("/api/me/register-fields", {
          address: "2 Southern Street",
          emergency_contact_name: null,
        })
      ).status,
    ).toBe(200);

    const id = (await client.get("/api/me")).body.data.id as string;
    const atHarbour = (await attacker.get(`/api/members/${id}`)).body.data;
    expect(atHarbour).toMatchObject({
      address: "1 Harbour Road",
      mobile_number: "021 111 1111",
      dob: "1990-03-15",
      emergency_contact: { name: "Harbour Contact" },
    });
    expect(atHarbour.profile_picture).toMatch(/^\/api\/files\/profile-pictures\//);
    const atSouthern = await victim.get(`/api/members/${id}`);
    expect(atSouthern.status).toBe(200);
    expect(atSouthern.body.data).toMatchObject({
      address: "2 Southern Street",
      mobile_number: null,
      emergency_contact: { name: null },
      profile_picture: null,
    });
    // The photo given to Harbour is Harbour's: Southern's admin cannot load it.
    const path = (atHarbour.profile_picture as string).replace(/^\/api/, "/api");
    expect((await attacker.get(path)).status).toBe(200);
    expect((await victim.get(path)).status).toBe(404);
  });
});

describe("the person's own email change", () => {
  it("is confirmed from the new address, told to the old one, and undone from it", async () => {
    const person = await signIn(api.url, "trainer@example.com");
    const wrong = await person.post("/api/me/email", { email: "t.new@example.net", password: "nope" });
    expect(wrong.status).toBe(422);
    const asked = await person.post("/api/me/email", {
      email: "t.new@example.net",
      password: "demo-password",
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    // Nothing changed yet.
    expect((await person.get("/api/me")).body.data.email).toBe("trainer@example.com");
    const confirm = tokenIn((await mailTo("t.new@example.net"))[0], "/confirm-email");
    expect((await new HttpClient(api.url).post("/api/email-change/confirm", { token: confirm })).status).toBe(
      200,
    );
    expect((await person.get("/api/me")).body.data.email).toBe("t.new@example.net");
    // The login email's claim moved with it (issue 39 item 6): the new address is claimed by this
    // account, the old one free.
    const claimOf = async (email: string) => {
      const { db } = await import("@gym/core/db/service");
      return (await db().entities.userEmail.get({ email }).go()).data?.user_id ?? null;
    };
    const me = (await person.get("/api/me")).body.data as { id?: string; user_id?: string };
    expect(await claimOf("t.new@example.net")).toBe(me.id ?? me.user_id);
    expect(await claimOf("trainer@example.com")).toBeNull();
    const told = (await mailTo("trainer@example.com")).find((m) => /login email was changed/.test(m.subject));
    expect(told?.text).toContain("t.new@example.net");
    const undo = tokenIn(told, "/undo-email");
    expect((await new HttpClient(api.url).post("/api/email-change/undo", { token: undo })).status).toBe(200);
    // Back to the old address, every session ended, a reset link sent to it.
    expect((await person.get("/api/me")).status).toBe(401);
    expect(await claimOf("t.new@example.net")).toBeNull();
    expect(await claimOf("trainer@example.com")).toBe(me.id ?? me.user_id);
    expect((await mailTo("trainer@example.com")).some((m) => /Reset your password/.test(m.subject))).toBe(
      true,
    );
    await signIn(api.url, "trainer@example.com");
  });
});
