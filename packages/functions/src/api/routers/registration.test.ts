import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { latestCode, signIn, useSeededApi } from "../../../../../tests/support/api";
import { HttpClient } from "../../../../../tests/support/http";

process.env.UPLOADS_DIR = mkdtempSync(join(tmpdir(), "gym-photos-"));
const api = useSeededApi();

type Seeded = Awaited<ReturnType<typeof import("../../local/seed/offerings")["seedOfferings"]>>;
let offerings: Seeded;
let ponsonbyUuid: string;
let newmarketUuid: string;
let dunedinUuid: string;
let today: string;

const JPEG = new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
]);

function photoForm(bytes: Uint8Array, type = "image/jpeg") {
  const form = new FormData();
  form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), "photo.jpg");
  return form;
}

const yearsAgo = (years: number, days = 0) => {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

let emails = 0;
function applicant(overrides: Record<string, unknown> = {}) {
  emails += 1;
  return {
    gym: ponsonbyUuid,
    price_id: offerings.prices.anytimeWeekly.price_id,
    name: "aroha te whare",
    email: `applicant${emails}@example.nz`,
    mobile_number: "021 123 4567",
    dob: yearsAgo(30),
    password: "a long passphrase",
    start_date: today,
    ...overrides,
  };
}

/** Registers and passes the emailed code: a signed-in new member. */
async function newMember(overrides: Record<string, unknown> = {}) {
  const client = new HttpClient(api.url);
  const body = applicant(overrides);
  const res = await client.post("/api/register", body, { "X-Forwarded-For": `10.1.0.${emails}` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const verify = await client.post("/api/email/verify", {
    code: await latestCode(client, body.email as string),
  });
  expect(verify.status).toBe(200);
  return { client, email: body.email as string };
}

beforeAll(async () => {
  const { seedOfferings } = await import("../../local/seed/offerings");
  const { seedGyms } = await import("../../local/seed/gyms");
  offerings = await seedOfferings(api.seed);
  await seedGyms(api.seed);
  ponsonbyUuid = api.seed.gyms.ponsonby.uuid;
  newmarketUuid = api.seed.gyms.newmarket.uuid;
  dunedinUuid = api.seed.gyms.dunedin.uuid;
  const { businessToday } = await import("@gym/core/clock");
  today = await businessToday();
});

describe("GET /api/join", () => {
  it("is cacheable for a minute (then stale while asking again), and answers 304 to its ETag", async () => {
    const url = `${api.url}/api/join?gym=${ponsonbyUuid}`;
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("public, max-age=60, stale-while-revalidate=300");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(url, { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect((await fetch(url, { headers: { "If-None-Match": '"other"' } })).status).toBe(200);
  });

  it("shows a gym's public offerings and prices by its uuid, not private or archived ones", async () => {
    const res = await new HttpClient(api.url).get(`/api/join?gym=${ponsonbyUuid}`);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.gym).toMatchObject({ uuid: ponsonbyUuid, name: "Harbour Fitness Ponsonby" });
    expect(data.organisation.name).toBe("Harbour Fitness");
    expect(data.min_age).toBe(16);
    expect(data.age_bypass).toBe(false);
    expect(data.takes_cards).toBe(true);
    expect(data.takes_bank).toBe(true);
    const names = data.offerings.map((o: { name: string }) => o.name);
    expect(names).toEqual(["Anytime Membership", "Off-Peak", "Summer Pass"]);
    const priceIds = data.offerings.flatMap((o: { prices: { id: string }[] }) => o.prices.map((p) => p.id));
    expect(priceIds).toContain(offerings.prices.anytimeWeekly.price_id);
    expect(priceIds).not.toContain(offerings.prices.staffRate.price_id);
  });

  it("offers only what a gym offers: Newmarket has no Off-Peak, and no card connection", async () => {
    const data = (await new HttpClient(api.url).get(`/api/join?gym=${newmarketUuid}`)).body.data;
    expect(data.offerings.map((o: { name: string }) => o.name)).toEqual([
      "Anytime Membership",
      "Summer Pass",
    ]);
    expect(data.takes_cards).toBe(false);
  });

  it("opens a private link with its price chosen, and the link's gyms to choose from", async () => {
    const res = await new HttpClient(api.url).get(`/api/join?price=${offerings.links.staffRate.token}`);
    expect(res.status).toBe(200);
    expect(res.body.data.selected_price_id).toBe(offerings.prices.staffRate.price_id);
    expect(res.body.data.gyms.map((g: { name: string }) => g.name).sort()).toEqual([
      "Harbour Fitness Newmarket",
      "Harbour Fitness Ponsonby",
    ]);
    const anytime = res.body.data.offerings.find((o: { name: string }) => o.name === "Anytime Membership");
    expect(anytime.prices.map((p: { id: string }) => p.id)).toContain(offerings.prices.staffRate.price_id);
  });

  it("answers 404 for an unknown gym or link, or a link of another organisation than the gym's", async () => {
    const client = new HttpClient(api.url);
    expect((await client.get("/api/join?gym=00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await client.get("/api/join?price=nope")).status).toBe(404);
    expect(
      (await client.get(`/api/join?gym=${dunedinUuid}&price=${offerings.links.staffRate.token}`)).status,
    ).toBe(404);
  });

  it("answers 422 with no gym or link", async () => {
    const res = await new HttpClient(api.url).get("/api/join");
    expect(res.status).toBe(422);
    expect(res.body.errors.gym).toEqual(["Open the gym's join link to register"]);
  });
});

describe("POST /api/unique-email", () => {
  it("says whether an address is free, and recognises a past member of the gym's organisation", async () => {
    const client = new HttpClient(api.url);
    const free = await client.post("/api/unique-email", { email: "Nobody.Yet@Example.nz" });
    expect(free.status).toBe(200);
    expect(free.body.data).toEqual({ unique: true, is_returning_member: false, message: null });
    const member = await client.post("/api/unique-email", { email: "member@example.com", gym: ponsonbyUuid });
    expect(member.body.data).toMatchObject({ unique: false, is_returning_member: true });
    const staff = await client.post("/api/unique-email", { email: "owner@example.org", gym: ponsonbyUuid });
    expect(staff.body.data).toMatchObject({
      unique: false,
      is_returning_member: false,
      message: "An account with that email already exists. Sign in instead.",
    });
  });

  it("answers 422 with the spec's messages", async () => {
    const client = new HttpClient(api.url);
    const blank = await client.post("/api/unique-email", { email: " " });
    expect(blank.status).toBe(422);
    expect(blank.body.errors.email).toEqual(["Value is required"]);
    const bad = await client.post("/api/unique-email", { email: "not an email" });
    expect(bad.body.errors.email).toEqual(["Value is not a valid email address"]);
  });
});

describe("POST /api/register", () => {
  it("creates the member with a session waiting for the emailed code (400 not_two_factor_authenticated until then)", async () => {
    const client = new HttpClient(api.url);
    const body = applicant();
    const res = await client.post("/api/register", body);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ two_factor_required: true, email: body.email });

    for (const path of ["/api/me", "/api/me/registration"]) {
      const waiting = await client.get(path);
      expect(waiting.status, path).toBe(400);
      expect(waiting.body.error).toBe("not_two_factor_authenticated");
    }
    const photo = await client.post("/api/profile-picture", photoForm(JPEG));
    expect(photo.status).toBe(400);

    const wrong = await client.post("/api/email/verify", { code: "000000" });
    expect(wrong.status).toBe(422);
    const resend = await client.post("/api/email/resend");
    expect([200, 429]).toContain(resend.status);
    // The code emails of someone joining are the gym's and say what the code is for (issue 35).
    const codes = (
      (await client.get(`/api/dev/mail?to=${encodeURIComponent(body.email)}`)).body.data as {
        subject: string;
        text: string;
      }[]
    ).filter((m) => /^\d{6} /.test(m.subject));
    expect(codes.length).toBeGreaterThanOrEqual(1);
    for (const code of codes) {
      expect(code.subject).toMatch(/^\d{6} is your code to join Harbour Fitness Ponsonby$/);
      expect(code.text).toContain("Harbour Fitness Ponsonby");
      expect(code.text).not.toContain("Gym platform");
      expect(code.text).not.toContain("change your password");
    }
    const verify = await client.post("/api/email/verify", { code: await latestCode(client, body.email) });
    expect(verify.status).toBe(200);

    const me = (await client.get("/api/me")).body.data;
    expect(me).toMatchObject({
      name: "Aroha Te Whare",
      email: body.email,
      is_staff: false,
      email_verified: true,
    });
    expect(me.current_organisation.id).toBe(api.seed.organisations.harbour.organisation_id);
    const state = (await client.get("/api/me/registration")).body.data;
    expect(state).toMatchObject({
      step: "take-photo",
      welcome: false,
      gym: { name: "Harbour Fitness Ponsonby", takes_cards: true, takes_bank: true },
      price: { id: offerings.prices.anytimeWeekly.price_id, offering: { name: "Anytime Membership" } },
      start_date: today,
      payment_types: [],
    });
    // The address now has an account.
    const again = await new HttpClient(api.url).post("/api/register", { ...body, name: "Someone Else" });
    expect(again.status).toBe(422);
    expect(again.body.errors.email).toEqual(["An account with that email already exists. Sign in instead."]);
  });

  it("of two registrations of one new email at the same instant, one wins and the other is told it is taken", async () => {
    const body = applicant();
    const { countsByGym } = await import("@gym/core/gym/counts");
    const { db } = await import("@gym/core/db/service");
    const harbour = api.seed.organisations.harbour.organisation_id;
    const membersBefore = (await countsByGym(harbour))(api.seed.gyms.ponsonby.gym_id).members_count;
    const answers = await Promise.all(
      [1, 2, 3].map((n) =>
        new HttpClient(api.url).post("/api/register", body, { "X-Forwarded-For": `10.2.0.${n}` }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422, 422]);
    for (const lost of answers.filter((a) => a.status === 422))
      expect(lost.body.errors.email).toEqual(["An account with that email already exists. Sign in instead."]);
    const { findUserByEmail } = await import("@gym/core/user/service");
    const winner = await findUserByEmail(body.email as string);
    expect(winner).toBeTruthy();
    // Everything registering makes is one transaction: the losers left no member, count or search term.
    expect((await countsByGym(harbour))(api.seed.gyms.ponsonby.gym_id).members_count).toBe(membersBefore + 1);
    const { data: members } = await db()
      .entities.member.query.byName({ organisation_id: harbour })
      .go({ pages: "all" });
    expect(members.filter((m) => m.email === winner?.email).map((m) => m.user_id)).toEqual([winner?.user_id]);
    const { data: terms } = await db()
      .entities.memberSearchTerm.query.primary({ organisation_id: harbour, initial: winner!.email[0] })
      .go({ pages: "all" });
    expect(new Set(terms.filter((t) => t.email === winner?.email).map((t) => t.user_id))).toEqual(
      new Set([winner?.user_id]),
    );
  });

  it("answers 422 with a message under every field that is wrong", async () => {
    const res = await new HttpClient(api.url).post("/api/register", {
      gym: ponsonbyUuid,
      price_id: "",
      name: " ",
      email: "nope",
      mobile_number: "abc",
      dob: "15/03/1990",
      password: "",
      start_date: "",
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatchObject({
      price_id: ["Choose a membership"],
      name: ["Value is required"],
      email: ["Value is not a valid email address"],
      mobile_number: ["Value is not a valid mobile number"],
      dob: ["Enter your date of birth"],
      password: ["Value is required"],
      start_date: ["Value is required"],
    });
  });

  it("refuses a common or short password, a past start date and a date of birth in the future", async () => {
    const res = await new HttpClient(api.url).post(
      "/api/register",
      applicant({ password: "password123", start_date: yearsAgo(0, -1), dob: yearsAgo(-1) }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.password[0]).toMatch(/too common/);
    expect(res.body.errors.start_date).toEqual(["The start date cannot be in the past"]);
    expect(res.body.errors.dob).toEqual(["Date of birth must be in the past"]);
  });

  it("refuses someone under the organisation's minimum age, unless they came through an age-bypass link", async () => {
    const young = applicant({ dob: yearsAgo(16, 1) });
    const refused = await new HttpClient(api.url).post("/api/register", young);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.dob).toEqual([
      "You must be at least 16 years old to join. Please ask the gym for help.",
    ]);
    expect(
      (await new HttpClient(api.url).post("/api/register", applicant({ dob: yearsAgo(16) }))).status,
    ).toBe(201);

    const admin = await signIn(api.url, "admin@example.com");
    const harbour = api.seed.organisations.harbour.organisation_id;
    const link = await admin.post(`/api/organisations/${harbour}/age-bypass-links`);
    expect(link.status).toBe(201);
    const token = new URL(link.body.data.url).searchParams.get("age_bypass")!;
    expect(
      (await new HttpClient(api.url).get(`/api/join?gym=${ponsonbyUuid}&age_bypass=${token}`)).body.data,
    ).toMatchObject({ age_bypass: true });
    const accepted = await new HttpClient(api.url).post("/api/register", { ...young, age_bypass: token });
    expect(accepted.status).toBe(201);
    // Another organisation's gym does not honour Harbour's link.
    const elsewhere = await new HttpClient(api.url).post(
      "/api/register",
      applicant({
        gym: dunedinUuid,
        price_id: offerings.prices.strengthWeekly.price_id,
        dob: yearsAgo(15),
        age_bypass: token,
      }),
    );
    expect(elsewhere.status).toBe(422);
  });

  it("follows the organisation's minimum age setting (organisation admins change it)", async () => {
    const harbour = api.seed.organisations.harbour.organisation_id;
    const admin = await signIn(api.url, "admin@example.com");
    expect((await admin.get(`/api/organisations/${harbour}/registration-settings`)).body.data).toEqual({
      min_registration_age: 16,
      terms_url: null,
    });
    const bad = await admin.put(`/api/organisations/${harbour}/registration-settings`, {
      min_registration_age: 16.5,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.min_registration_age).toEqual(["Enter a whole number of years"]);
    const trainer = await signIn(api.url, "trainer@example.com");
    expect(
      (await trainer.put(`/api/organisations/${harbour}/registration-settings`, { min_registration_age: 12 }))
        .status,
    ).toBe(403);
    const outsider = await signIn(api.url, "owner@example.org");
    expect(
      (
        await outsider.put(`/api/organisations/${harbour}/registration-settings`, {
          min_registration_age: 12,
        })
      ).status,
    ).toBe(404);

    expect(
      (await admin.put(`/api/organisations/${harbour}/registration-settings`, { min_registration_age: 18 }))
        .status,
    ).toBe(200);
    try {
      expect((await new HttpClient(api.url).get(`/api/join?gym=${ponsonbyUuid}`)).body.data.min_age).toBe(18);
      const seventeen = await new HttpClient(api.url).post("/api/register", applicant({ dob: yearsAgo(17) }));
      expect(seventeen.status).toBe(422);
      expect(seventeen.body.errors.dob).toEqual([
        "You must be at least 18 years old to join. Please ask the gym for help.",
      ]);
    } finally {
      await admin.put(`/api/organisations/${harbour}/registration-settings`, { min_registration_age: 16 });
    }
  });

  it("links the organisation's terms and conditions: an https address, shown on the join link and the confirm state", async () => {
    const harbour = api.seed.organisations.harbour.organisation_id;
    const admin = await signIn(api.url, "admin@example.com");
    const put = (body: object) => admin.put(`/api/organisations/${harbour}/registration-settings`, body);
    for (const terms_url of [
      "http://harbour.example/terms",
      "harbour.example/terms",
      "javascript:alert(1)",
      42,
    ]) {
      const bad = await put({ min_registration_age: 16, terms_url });
      expect(bad.status, String(terms_url)).toBe(422);
      expect(bad.body.errors.terms_url).toEqual(["Enter a web address starting with https://"]);
    }
    const tooLong = await put({
      min_registration_age: 16,
      terms_url: `https://harbour.example/${"t".repeat(2000)}`,
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors.terms_url).toEqual(["The maximum length allowed is 2000 characters"]);
    const trainer = await signIn(api.url, "trainer@example.com");
    expect(
      (
        await trainer.put(`/api/organisations/${harbour}/registration-settings`, {
          min_registration_age: 16,
          terms_url: "https://x.example",
        })
      ).status,
    ).toBe(403);

    const saved = await put({ min_registration_age: 16, terms_url: " https://harbour.example/terms " });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({ min_registration_age: 16, terms_url: "https://harbour.example/terms" });
    try {
      // A PUT without the field keeps it (older clients send only the age).
      expect((await put({ min_registration_age: 16 })).body.data.terms_url).toBe(
        "https://harbour.example/terms",
      );
      const join = (await new HttpClient(api.url).get(`/api/join?gym=${ponsonbyUuid}`)).body.data;
      expect(join.terms_url).toBe("https://harbour.example/terms");
      const { client } = await newMember();
      expect((await client.get("/api/me/registration")).body.data.terms_url).toBe(
        "https://harbour.example/terms",
      );
    } finally {
      const cleared = await put({ min_registration_age: 16, terms_url: "" });
      expect(cleared.body.data.terms_url).toBeNull();
    }
    expect(
      (await new HttpClient(api.url).get(`/api/join?gym=${ponsonbyUuid}`)).body.data.terms_url,
    ).toBeNull();
  });

  it("takes a private price only through its link, and no archived, other gym's or other organisation's price", async () => {
    const privatePrice = offerings.prices.staffRate.price_id;
    const without = await new HttpClient(api.url).post(
      "/api/register",
      applicant({ price_id: privatePrice }),
    );
    expect(without.status).toBe(422);
    expect(without.body.errors.price_id).toEqual(["This membership is not available. Choose another."]);
    const withLink = await newMember({ price_id: privatePrice, price_link: offerings.links.staffRate.token });
    const state = (await withLink.client.get("/api/me/registration")).body.data;
    expect(state.price).toMatchObject({ id: privatePrice, private: true });
    expect(state.price_link).toBe(offerings.links.staffRate.token);

    const offPeakAtNewmarket = await new HttpClient(api.url).post(
      "/api/register",
      applicant({ gym: newmarketUuid, price_id: (await offPeakPrice()).id }),
    );
    expect(offPeakAtNewmarket.status).toBe(422);
    const otherOrganisation = await new HttpClient(api.url).post(
      "/api/register",
      applicant({ price_id: offerings.prices.strengthWeekly.price_id }),
    );
    expect(otherOrganisation.status).toBe(422);
    expect(otherOrganisation.body.errors.price_id).toBeTruthy();
  });
});

async function offPeakPrice() {
  const data = (await new HttpClient(api.url).get(`/api/join?gym=${ponsonbyUuid}`)).body.data;
  return data.offerings.find((o: { name: string }) => o.name === "Off-Peak").prices[0];
}

describe("the steps after the code", () => {
  it("photo, register fields, bank account, confirm: the state moves step by step to the welcome", async () => {
    const { client, email } = await newMember();

    const notImage = await client.post(
      "/api/profile-picture",
      photoForm(new TextEncoder().encode("hello"), "image/jpeg"),
    );
    expect(notImage.status).toBe(422);
    expect(notImage.body.errors.file).toEqual(["The photo must be a JPEG, PNG or WebP image"]);
    const none = await client.post("/api/profile-picture", new FormData());
    expect(none.status).toBe(422);
    const photo = await client.post("/api/profile-picture", photoForm(JPEG));
    expect(photo.status).toBe(200);
    const url: string = photo.body.data.profile_picture;
    const image = await client.get(url);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/jpeg");
    // Nobody else sees it; staff of the member's organisation do.
    expect((await (await signIn(api.url, "owner@example.org")).get(url)).status).toBe(404);
    expect((await (await signIn(api.url, "admin@example.com")).get(url)).status).toBe(200);
    expect((await client.get("/api/me/registration")).body.data.step).toBe("choose-payment-method");

    // Marketing consent (gym news) is off until the member turns it on; the service emails'
    // switches are on (docs/communications.md "Preferences").
    expect((await client.get("/api/me/registration")).body.data.register_fields).toMatchObject({
      marketing_emails: false,
      email_notifications_enabled: true,
      payment_reminders: true,
    });
    const badFields = await client.put("/api/me/register-fields", {
      post_code: "12",
      emergency_contact_email: "nope",
      hear_about_us: "other",
      confidence_and_experience: "whatever",
    });
    expect(badFields.status).toBe(422);
    expect(badFields.body.errors).toMatchObject({
      post_code: ["Enter a 4-digit post code"],
      emergency_contact_email: ["Value is not a valid email address"],
      hear_about_us_other: ["Value is required"],
      confidence_and_experience: ["Choose an answer"],
    });
    const fields = await client.put("/api/me/register-fields", {
      address: "12 Queen Street",
      suburb: "Ponsonby",
      city: "Auckland",
      post_code: "1011",
      emergency_contact_name: "Mere",
      emergency_contact_mobile_number: "021 765 4321",
      emergency_contact_relationship: "Mother",
      confidence_and_experience: "first_time",
      hear_about_us: "other",
      hear_about_us_other: "Walked past",
      marketing_emails: true,
    });
    expect(fields.status).toBe(200);
    expect(fields.body.data).toMatchObject({
      marketing_emails: true,
      email_notifications_enabled: true,
      city: "Auckland",
      confidence_and_experience_label: "This is my first time at a gym",
      hear_about_us_label: "Other",
      hear_about_us_other: "Walked past",
    });

    // Bank: before a consent there is nothing to pick.
    const early = await client.post("/api/me/payment-types/bank-account", { account_id: "acc_x" });
    expect(early.status).toBe(409);
    const auth = await client.get("/api/akahu/auth-url");
    expect(auth.status).toBe(200);
    const state = new URL(auth.body.data.url).searchParams.get("state")!;
    const { simulatedAkahuCode } = await import("@gym/core/simulators/akahu");
    const exchange = await client.post("/api/akahu/exchange", { code: simulatedAkahuCode(state), state });
    expect(exchange.status).toBe(200);
    const accounts = await client.post("/api/akahu/sync-accounts");
    expect(accounts.status).toBe(200);
    const everyday = accounts.body.data.find((a: { name: string }) => a.name === "Everyday");
    const unknown = await client.post("/api/me/payment-types/bank-account", { account_id: "acc_not_mine" });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.account_id).toEqual(["Choose one of your connected accounts."]);
    const blank = await client.post("/api/me/payment-types/bank-account", { account_id: "" });
    expect(blank.status).toBe(422);
    const bank = await client.post("/api/me/payment-types/bank-account", { account_id: everyday.id });
    expect(bank.status).toBe(201);
    expect(bank.body.data).toMatchObject({ type: "bank_account", is_default: true, status: "active" });

    const ready = (await client.get("/api/me/registration")).body.data;
    expect(ready.step).toBe("confirm-subscription");
    expect(ready.default_payment_type.id).toBe(bank.body.data.id);
    expect(ready.general_card_surcharge_text).toMatch(/^Card payments carry a surcharge of 2\.5% \+ \$0\.30/);

    // A private price cannot be named in the body without its link.
    const sneaky = await client.post("/api/subscriptions", { price_id: offerings.prices.staffRate.price_id });
    expect(sneaky.status).toBe(422);
    expect(sneaky.body.errors.price_id).toEqual(["This price is offered only through its private link."]);

    const confirmed = await client.post("/api/subscriptions");
    expect(confirmed.status).toBe(201);
    expect(confirmed.body.data).toMatchObject({
      gym: { name: "Harbour Fitness Ponsonby" },
      price: { id: offerings.prices.anytimeWeekly.price_id },
      payment_method: "bank_account",
      start_date: today,
    });
    const welcome = (await client.get("/api/me/registration")).body.data;
    expect(welcome).toMatchObject({ step: "welcome-to-gym", welcome: true, payment_failed: false });
    expect(welcome.subscription.id).toBe(confirmed.body.data.id);

    const mail = (await client.get("/api/dev/mail")).body.data as { to: string; subject: string }[];
    const mine = mail.filter((m) => m.to === email).map((m) => m.subject);
    expect(mine).toContain("Welcome to Harbour Fitness Ponsonby");
    expect(mine.some((s) => s.startsWith("Notice of your first direct debit: $24.00"))).toBe(true);
  });

  it("saves a card through a SetupIntent on the gym's connected account", async () => {
    const { client } = await newMember();
    const setup = await client.post("/api/me/payment-types/card/setup");
    expect(setup.status).toBe(200);
    expect(setup.body.data.stripe_account).toBe("acct_simHarbourPonsonby");
    // Simulated Stripe: the simulated card form, never Stripe.js (no publishable key).
    expect(setup.body.data.publishable_key).toBeNull();
    const form = new URL(setup.body.data.form_url);
    expect(form.pathname).toBe("/api/dev/stripe/setup");
    expect(form.searchParams.get("return_url")).toMatch(/\/card-details$/);

    const unconfirmed = await client.post("/api/me/payment-types/card", {
      setup_intent_id: setup.body.data.setup_intent_id,
    });
    expect(unconfirmed.status).toBe(422);
    const confirm = await new HttpClient(api.url).post("/api/dev/stripe/setup/confirm", {
      account: setup.body.data.stripe_account,
      setup_intent: setup.body.data.setup_intent_id,
      client_secret: setup.body.data.client_secret,
      return_url: form.searchParams.get("return_url"),
      number: "4242424242424242",
      exp_month: 12,
      exp_year: 2034,
    });
    expect(confirm.status).toBe(200);
    // Another member cannot take this card.
    const { client: other } = await newMember();
    expect(
      (await other.post("/api/me/payment-types/card", { setup_intent_id: setup.body.data.setup_intent_id }))
        .status,
    ).toBe(404);
    const card = await client.post("/api/me/payment-types/card", {
      setup_intent_id: setup.body.data.setup_intent_id,
    });
    expect(card.status).toBe(201);
    expect(card.body.data).toMatchObject({ type: "stripe_card", last_four: "4242", is_default: true });
    expect((await client.post("/api/me/payment-types/card", {})).status).toBe(422);
  });

  it("a gym with no card connection refuses a card", async () => {
    const { client } = await newMember({ gym: newmarketUuid });
    const setup = await client.post("/api/me/payment-types/card/setup");
    expect(setup.status).toBe(409);
    expect(setup.body.message).toBe("This gym does not take card payments yet.");
  });
});

/** Photo and the simulated bank consent: a member ready to confirm. */
async function readyToConfirm(client: HttpClient) {
  expect((await client.post("/api/profile-picture", photoForm(JPEG))).status).toBe(200);
  const auth = await client.get("/api/akahu/auth-url");
  const state = new URL(auth.body.data.url).searchParams.get("state")!;
  const { simulatedAkahuCode } = await import("@gym/core/simulators/akahu");
  expect((await client.post("/api/akahu/exchange", { code: simulatedAkahuCode(state), state })).status).toBe(
    200,
  );
  const accounts = (await client.post("/api/akahu/sync-accounts")).body.data as { id: string }[];
  expect(
    (await client.post("/api/me/payment-types/bank-account", { account_id: accounts[0]!.id })).status,
  ).toBe(201);
}

let adminClient: Promise<HttpClient> | undefined;
/** One staff session for these tests (each sign-in emails a code, and codes are rate-limited). */
const admin = () => {
  adminClient ??= signIn(api.url, "admin@example.com");
  return adminClient;
};

describe("PUT /api/me/registration (choosing again: rejoining, or changing the choice)", () => {
  it("a past member chooses a new membership and confirms it; refused while the membership is live", async () => {
    const { client, email } = await newMember();
    await readyToConfirm(client);
    const first = await client.post("/api/subscriptions");
    expect(first.status).toBe(201);
    const choice = {
      gym: ponsonbyUuid,
      price_id: offerings.prices.anytimeWeekly.price_id,
      start_date: today,
    };

    const live = await client.put("/api/me/registration", choice);
    expect(live.status).toBe(409);
    expect(live.body.message).toBe(
      "You already have a membership here. Open your membership page to manage it.",
    );

    const staff = await admin();
    const cancelled = await staff.post(`/api/subscriptions/${first.body.data.id}/cancel`, {
      immediate: true,
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);

    // The old choice was used: the join site asks them to choose again.
    const after = (await client.get("/api/me/registration")).body.data;
    // They were a member: returning (the join site welcomes them back, issue 35).
    expect(after).toMatchObject({ welcome: false, choice_needed: true, is_returning_member: true });

    const bad = await client.put("/api/me/registration", {
      gym: ponsonbyUuid,
      price_id: offerings.prices.staffRate.price_id,
      start_date: yearsAgo(0, -1),
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      price_id: ["This membership is not available. Choose another."],
      start_date: ["The start date cannot be in the past"],
    });
    expect((await client.put("/api/me/registration", { gym: ponsonbyUuid })).status).toBe(422);

    const again = await client.put("/api/me/registration", {
      ...choice,
      price_id: offerings.prices.anytimeFortnightly.price_id,
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    // Their photo and bank account still count: straight to confirming.
    expect(again.body.data).toMatchObject({
      step: "confirm-subscription",
      choice_needed: false,
      is_returning_member: true,
      price: { id: offerings.prices.anytimeFortnightly.price_id },
      start_date: today,
    });
    const second = await client.post("/api/subscriptions");
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect(second.body.data.price.id).toBe(offerings.prices.anytimeFortnightly.price_id);
    expect((await client.get("/api/me/registration")).body.data.step).toBe("welcome-to-gym");
    const mail = (await client.get("/api/dev/mail")).body.data as { to: string; subject: string }[];
    expect(
      mail.filter((m) => m.to === email && m.subject === "Welcome to Harbour Fitness Ponsonby"),
    ).toHaveLength(2);
  });

  it("a member who has not confirmed changes gym and price; the session moves to the new gym", async () => {
    const { client } = await newMember();
    const moved = await client.put("/api/me/registration", {
      gym: newmarketUuid,
      price_id: offerings.prices.anytimeWeekly.price_id,
      start_date: today,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toMatchObject({
      step: "take-photo",
      gym: { name: "Harbour Fitness Newmarket", takes_cards: false },
      is_returning_member: false,
    });
    expect((await client.get("/api/me/registration")).body.data.gym.uuid).toBe(newmarketUuid);
    // Staff of the gym see them as a member there.
    const staff = await admin();
    const me = (await client.get("/api/me")).body.data;
    const member = await staff.get(`/api/members/${me.user?.id ?? me.id}`);
    expect(member.status).toBe(200);
  });

  it("is for members: staff accounts are refused, and nobody signed in is 401", async () => {
    const staff = await admin();
    const choice = {
      gym: ponsonbyUuid,
      price_id: offerings.prices.anytimeWeekly.price_id,
      start_date: today,
    };
    const refused = await staff.put("/api/me/registration", choice);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      "This is a staff account. Join as a member with another email address.",
    );
    expect((await new HttpClient(api.url).put("/api/me/registration", choice)).status).toBe(401);
  });
});
