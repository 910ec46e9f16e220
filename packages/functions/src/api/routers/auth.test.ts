import { describe, expect, it } from "vitest";
import { latestCode, signIn, useSeededApi } from "../../../../../tests/support/api";
import { HttpClient } from "../../../../../tests/support/http";

const api = useSeededApi();
const mailTo = async (client: HttpClient, to: string) =>
  ((await client.get("/api/dev/mail")).body.data as { to: string; subject: string; text: string }[]).filter(
    (m) => m.to === to,
  );

describe("sign-in with an emailed code", () => {
  it("signs in with password then code, and /me answers the spec's shape", async () => {
    const client = new HttpClient(api.url);
    const login = await client.post("/api/login", { email: "Admin@Example.com ", password: "demo-password" });
    expect(login.status).toBe(200);
    expect(login.body.data.two_factor_required).toBe(true);
    const cookie = login.headers.getSetCookie()[0];
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);

    // Until the code is given every authenticated call answers 400 not_two_factor_authenticated.
    const pending = await client.get("/api/me");
    expect(pending.status).toBe(400);
    expect(pending.body.error).toBe("not_two_factor_authenticated");

    const verify = await client.post("/api/email/verify", {
      code: await latestCode(client, "admin@example.com"),
    });
    expect(verify.status).toBe(200);

    const me = await client.get("/api/me");
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({
      name: "Avery Admin",
      email: "admin@example.com",
      is_staff: true,
      current_organisation: { name: "Harbour Fitness", multi_gym: true, role: "admin" },
    });
    expect(me.body.data.organisations).toHaveLength(2);
    expect(me.body.data.gyms).toHaveLength(2);
  });

  it("emails a member's sign-in code from their gym, in member words; staff get the platform's", async () => {
    const client = new HttpClient(api.url);
    const gym = api.seed.gyms.ponsonby;
    expect(
      (await client.post("/api/login", { email: "member@example.com", password: "demo-password" })).status,
    ).toBe(200);
    const [mail] = (await mailTo(client, "member@example.com")).filter((m) => /sign-in code/.test(m.subject));
    expect(mail.subject).toMatch(new RegExp(`^\\d{6} is your sign-in code for ${gym.name}$`));
    expect(mail.text).toContain(gym.name);
    expect(mail.text).not.toContain("Gym platform");
    expect(mail.text).not.toContain("staff");

    expect(
      (await client.post("/api/login", { email: "trainer@example.com", password: "demo-password" })).status,
    ).toBe(200);
    const [staff] = await mailTo(client, "trainer@example.com");
    expect(staff.subject).toMatch(/^\d{6} is your sign-in code$/);
  });

  it("gives the same answer for an unknown email and a wrong password", async () => {
    const client = new HttpClient(api.url);
    const unknown = await client.post(
      "/api/login",
      { email: "nobody@example.com", password: "whatever-123" },
      { "X-Forwarded-For": "10.9.0.1" },
    );
    const wrong = await client.post(
      "/api/login",
      { email: "trainer@example.com", password: "whatever-123" },
      { "X-Forwarded-For": "10.9.0.1" },
    );
    expect(unknown.status).toBe(422);
    expect(wrong.status).toBe(422);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.body.errors.email[0]).toBe("These credentials do not match our records.");
  });

  it("answers 401 without a session and 422 with field messages for an empty form", async () => {
    const client = new HttpClient(api.url);
    expect((await client.get("/api/me")).status).toBe(401);
    const empty = await client.post("/api/login", { email: "  ", password: "" });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({ email: ["Value is required"], password: ["Value is required"] });
  });

  it("never answers 500 to malformed bodies", async () => {
    const client = new HttpClient(api.url);
    for (const body of ["{not json", "[]", "null", '"text"', JSON.stringify({ email: 5, password: {} })]) {
      const res = await client.request("POST", "/api/login", body);
      expect(res.status, body).toBeGreaterThanOrEqual(400);
      expect(res.status, body).toBeLessThan(500);
      expect(res.body.message).toEqual(expect.any(String));
    }
    const noType = await client.request("POST", "/api/login", "email=a", { "Content-Type": "text/plain" });
    expect([415, 422]).toContain(noType.status);
  });

  it("refuses code guessing after five tries; a fresh code works once", async () => {
    const client = new HttpClient(api.url);
    await client.post("/api/login", { email: "owner@example.org", password: "demo-password" });
    const code = await latestCode(client, "owner@example.org");
    const wrongCode = code === "000000" ? "111111" : "000000";
    const tries = [];
    for (let i = 0; i < 5; i++) tries.push(await client.post("/api/email/verify", { code: wrongCode }));
    expect(tries.map((t) => t.status)).toEqual([422, 422, 422, 422, 422]);
    expect(tries[0].body.errors.code[0]).toMatch(/4 tries left/);
    // The right code no longer works once five wrong ones were given.
    const late = await client.post("/api/email/verify", { code });
    expect(late.status).toBe(422);
    expect(late.body.errors.code[0]).toMatch(/Request a new code/);
    expect((await client.get("/api/me")).status).toBe(400);

    // Resend is rate limited: the code from login was sent moments ago.
    const tooSoon = await client.post("/api/email/resend");
    expect(tooSoon.status).toBe(429);
  });

  it("uses a code once", async () => {
    const client = new HttpClient(api.url);
    await client.post("/api/login", { email: "member@example.com", password: "demo-password" });
    const code = await latestCode(client, "member@example.com");
    expect((await client.post("/api/email/verify", { code })).status).toBe(200);
    const other = new HttpClient(api.url);
    await other.post("/api/login", { email: "member@example.com", password: "demo-password" });
    // The old code is gone; a new one was sent for the new session. Two random six-digit codes
    // can be equal (1 in a million), which would hide a code still accepted: the new session's
    // stored code is set to one that differs from the old, so the old one is always a wrong guess.
    const { codeHash } = await import("@gym/core/auth/tokens");
    const { db } = await import("@gym/core/db/service");
    const { findUserByEmail } = await import("@gym/core/user/service");
    const user = await findUserByEmail("member@example.com");
    if (!user) throw new Error("no member");
    const fresh = code === "123456" ? "654321" : "123456";
    await db()
      .entities.code.patch({ user_id: user.user_id, purpose: "two_factor" })
      .set({ code_hash: codeHash(user.user_id, fresh) })
      .go();
    expect((await other.post("/api/email/verify", { code })).status).toBe(422);
    expect((await other.post("/api/email/verify", { code: fresh })).status).toBe(200);
    expect((await other.post("/api/email/verify", { code: fresh })).status).toBe(422);
  });

  it("slows then refuses repeated failed sign-ins to one account from one address with 429", async () => {
    const client = new HttpClient(api.url);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await client.post(
        "/api/login",
        { email: "ghost@example.com", password: `guess-${i}-xyz` },
        { "X-Forwarded-For": "10.1.0.1" },
      );
      statuses.push(res.status);
    }
    // Nine told apart (422), the tenth a guarded answer (the code step), then that address is refused.
    expect(statuses.slice(0, 9).every((s) => s === 422)).toBe(true);
    expect(statuses.slice(9)).toEqual([200, 429]);
    const refused = await client.post(
      "/api/login",
      { email: "ghost@example.com", password: "x" },
      { "X-Forwarded-For": "10.1.0.1" },
    );
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/Too many failed sign-in attempts/);
    expect(refused.headers.get("retry-after")).toBeTruthy();
    // Another address is not refused: the account is guarded, the answer is the code step.
    const elsewhere = await client.post(
      "/api/login",
      { email: "ghost@example.com", password: "x" },
      { "X-Forwarded-For": "10.1.0.99" },
    );
    expect(elsewhere.status).toBe(200);
  }, 60_000);

  it("refuses a client address that guesses across many accounts", async () => {
    const client = new HttpClient(api.url);
    let last = 0;
    for (let i = 0; i < 31; i++) {
      last = (
        await client.post(
          "/api/login",
          { email: `spray-${i}@example.com`, password: "guess-guess" },
          { "X-Forwarded-For": "10.7.7.7" },
        )
      ).status;
    }
    expect(last).toBe(429);
    // Another address is unaffected.
    const other = await client.post(
      "/api/login",
      { email: "spray-0@example.com", password: "guess-guess" },
      { "X-Forwarded-For": "10.7.7.8" },
    );
    expect(other.status).toBe(422);
  }, 60_000);

  it("logs out: the session ends and the cookie is cleared", async () => {
    const client = await signIn(api.url, "trainer@example.com");
    expect((await client.get("/api/me")).status).toBe(200);
    expect((await client.post("/api/logout")).status).toBe(200);
    expect((await client.get("/api/me")).status).toBe(401);
  });
});

describe("password links", () => {
  it("answers forgot-password the same whether or not the account exists", async () => {
    const client = new HttpClient(api.url);
    const known = await client.post("/api/forgot-password", { email: "trainer@example.com" });
    const unknown = await client.post("/api/forgot-password", { email: "nobody-here@example.com" });
    expect(known.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect(await mailTo(client, "nobody-here@example.com")).toHaveLength(0);
  });

  it("asked on the join site, the reset link opens the join site's page, signed and named by the gym", async () => {
    const client = new HttpClient(api.url);
    const { config } = await import("@gym/core/config");
    const gym = api.seed.gyms.ponsonby;
    const bad = await client.post("/api/forgot-password", {
      email: "member@example.com",
      site: "join",
      gym: "x",
    });
    expect(bad.status).toBe(422);
    const asked = await client.post("/api/forgot-password", {
      email: "member@example.com",
      site: "join",
      gym: gym.uuid,
    });
    expect(asked.status).toBe(200);
    const [mail] = (await mailTo(client, "member@example.com")).filter(
      (m) => m.subject === "Reset your password",
    );
    expect(mail.text).toMatch(
      new RegExp(`${config.joinUrl}/reset-password\\?token=[^&\\s]+&gym=${gym.uuid}`),
    );
    expect(mail.text).toContain(gym.name);
    expect(mail.text).not.toContain("Gym platform");
  });

  it("resets a password from the emailed link once, ends old sessions, and refuses a replay", async () => {
    const before = await signIn(api.url, "member@example.com");
    const client = new HttpClient(api.url);
    await client.post("/api/forgot-password", { email: "member@example.com" });
    const [mail] = await mailTo(client, "member@example.com").then((all) =>
      all.filter((m) => m.subject === "Reset your password"),
    );
    const token = decodeURIComponent(/token=([^\s&]+)/.exec(mail.text)![1]);

    expect((await client.post("/api/validate-link", { token })).body.data).toMatchObject({
      valid: true,
      purpose: "reset",
      email: "member@example.com",
    });

    const weak = await client.post("/api/reset-password", {
      token,
      password: "password123",
      password_confirmation: "password123",
    });
    expect(weak.status).toBe(422);
    expect(weak.body.errors.password[0]).toMatch(/too common/);
    const mismatch = await client.post("/api/reset-password", {
      token,
      password: "a-new-long-passphrase",
      password_confirmation: "different-one",
    });
    expect(mismatch.body.errors.password_confirmation).toEqual([
      "The value must be equal to the other value",
    ]);

    const ok = await client.post("/api/reset-password", {
      token,
      password: "a-new-long-passphrase",
      password_confirmation: "a-new-long-passphrase",
    });
    expect(ok.status).toBe(200);
    expect((await before.get("/api/me")).status).toBe(401);

    const replay = await client.post("/api/reset-password", {
      token,
      password: "another-long-passphrase",
      password_confirmation: "another-long-passphrase",
    });
    expect(replay.status).toBe(422);
    expect(replay.body.errors.token[0]).toMatch(/expired or has already been used/);
    expect((await client.post("/api/validate-link", { token })).body.data.valid).toBe(false);

    await signIn(api.url, "member@example.com", "a-new-long-passphrase");
  });
});

describe("switching", () => {
  it("switches gym and organisation within the user's reach only", async () => {
    const admin = await signIn(api.url, "admin@example.com");
    const me = (await admin.get("/api/me")).body.data;
    const otherGym = me.gyms.find((g: { id: string }) => g.id !== me.current_gym.id);
    const switched = await admin.post(`/api/gyms/${otherGym.id}/switch`);
    expect(switched.status).toBe(200);
    expect(switched.body.data.current_gym.id).toBe(otherGym.id);
    expect((await admin.get("/api/gyms")).body.data.find((g: { selected: boolean }) => g.selected).id).toBe(
      otherGym.id,
    );

    const kiwi = me.organisations.find((o: { name: string }) => o.name === "Kiwi CrossFit");
    const toKiwi = await admin.post(`/api/organisations/${kiwi.id}/switch`);
    expect(toKiwi.body.data.current_organisation.name).toBe("Kiwi CrossFit");
    expect(toKiwi.body.data.gyms).toHaveLength(1);

    // Another organisation's gym or organisation id is not found.
    expect((await admin.post(`/api/gyms/${api.seed.gyms.dunedin.gym_id}/switch`)).status).toBe(404);
    expect(
      (await admin.post(`/api/organisations/${api.seed.organisations.southern.organisation_id}/switch`))
        .status,
    ).toBe(404);
  });

  it("gives a trainer only their gym and no organisation role", async () => {
    const trainer = await signIn(api.url, "trainer@example.com");
    const me = (await trainer.get("/api/me")).body.data;
    expect(me.current_organisation.role).toBeNull();
    expect(me.gyms).toEqual([
      { id: api.seed.gyms.ponsonby.gym_id, name: "Harbour Fitness Ponsonby", role: "personal_trainer" },
    ]);
    expect((await trainer.post(`/api/gyms/${api.seed.gyms.newmarket.gym_id}/switch`)).status).toBe(404);
  });
});
