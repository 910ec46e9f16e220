import { describe, expect, it } from "vitest";
import { latestCode, signIn, useSeededApi } from "../../../../../tests/support/api";
import { HttpClient } from "../../../../../tests/support/http";

/**
 * The attacks of the security review, replayed: limits fired at in parallel must let at most the
 * limit through (they were read, checked, then written, so parallel requests all slipped past).
 */
const api = useSeededApi();

async function person(email: string, password = "right-password-123") {
  const { createUser } = await import("@gym/core/user/service");
  await createUser({ email, name: "Race Person", password, email_verified: true });
  return { email, password };
}

const mails = async (to: string, subject: RegExp) =>
  (
    (await new HttpClient(api.url).get("/api/dev/mail")).body.data as {
      to: string;
      subject: string;
      text: string;
    }[]
  ).filter((m) => m.to === to && subject.test(m.subject));

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe("sign-in limits under parallel requests", () => {
  it("tells at most 9 passwords of one account right from wrong, and the right one at position 60 still reaches the code step", async () => {
    const { email, password } = await person("race-account@example.com");
    const client = new HttpClient(api.url);
    const answers = await Promise.all(
      Array.from({ length: 101 }, (_, i) =>
        client.post(
          "/api/login",
          { email, password: i === 60 ? password : `wrong-guess-${i}` },
          // A different address each time: only the account limit applies.
          { "X-Forwarded-For": `10.60.${Math.floor(i / 200)}.${i % 200}` },
        ),
      ),
    );
    const statuses = answers.map((a) => a.status);
    // At most 9 wrong ones were told apart (422); every other answer is the code step (200),
    // a real one for the right password, a decoy for the others (no 429: nobody is locked out).
    expect(count(statuses, 422)).toBeLessThanOrEqual(9);
    expect(count(statuses, 200)).toBe(101 - count(statuses, 422));
    expect(answers[60].status).toBe(200);
    expect(await mails(email, /sign-in code/)).toHaveLength(1);
  }, 90_000);

  it("compares at most 30 sign-ins from one address across many accounts", async () => {
    const client = new HttpClient(api.url);
    const statuses = (
      await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          client.post(
            "/api/login",
            { email: `spray-race-${i}@example.com`, password: "guess-guess" },
            { "X-Forwarded-For": "10.62.0.1" },
          ),
        ),
      )
    ).map((a) => a.status);
    expect(count(statuses, 422)).toBe(30);
    expect(count(statuses, 429)).toBe(70);
  }, 90_000);

  it("a right password gives its counts back: signing in does not use up the address", async () => {
    const { email, password } = await person("race-regular@example.com");
    const client = new HttpClient(api.url);
    for (let i = 0; i < 3; i++) {
      const ok = await client.post("/api/login", { email, password }, { "X-Forwarded-For": "10.63.0.1" });
      expect(ok.status).toBe(200);
    }
  });
});

describe('sign-in an attacker cannot turn off (docs/staff-shell.md "Sign-in limits")', () => {
  const from = (n: number) => ({ "X-Forwarded-For": `10.70.${Math.floor(n / 200)}.${n % 200}` });

  it("40 wrong passwords from 40 addresses: the owner still signs in from a new address with the right password and the emailed code", async () => {
    const { email, password } = await person("lockout-victim@example.com");
    const attacker = new HttpClient(api.url);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++)
      statuses.push((await attacker.post("/api/login", { email, password: `wrong-${i}` }, from(i))).status);
    // At most nine failures are told apart from a right password; then every answer is the code step.
    expect(count(statuses, 422)).toBeLessThanOrEqual(9);
    expect(count(statuses, 429)).toBe(0);
    expect(count(statuses, 200)).toBe(40 - count(statuses, 422));

    const owner = new HttpClient(api.url);
    const login = await owner.post("/api/login", { email, password }, { "X-Forwarded-For": "10.71.0.1" });
    expect(login.status).toBe(200);
    const verify = await owner.post("/api/email/verify", { code: await latestCode(owner, email) });
    expect(verify.status).toBe(200);
    expect((await owner.get("/api/me")).status).toBe(200);
  }, 90_000);

  it("tells the attacker nothing once the account is guarded: a wrong password's code step never passes", async () => {
    const { email, password } = await person("lockout-guarded@example.com");
    const attacker = new HttpClient(api.url);
    for (let i = 0; i < 12; i++)
      await attacker.post("/api/login", { email, password: `wrong-${i}` }, from(100 + i));
    const codesBefore = (await mails(email, /sign-in code/)).length;
    const guess = new HttpClient(api.url);
    const wrong = await guess.post("/api/login", { email, password: "still-wrong" }, from(150));
    expect(wrong.status).toBe(200);
    expect(wrong.body).toEqual({ data: { two_factor_required: true } });
    // No code is emailed for a wrong password, and no code passes its session.
    expect(await mails(email, /sign-in code/)).toHaveLength(codesBefore);
    const tries = [];
    for (let i = 0; i < 6; i++)
      tries.push(await guess.post("/api/email/verify", { code: String(100000 + i) }));
    expect(tries.map((t) => t.status)).toEqual([422, 422, 422, 422, 422, 422]);
    expect(tries[0].body.errors.code[0]).toBe("That code is not right. 4 tries left.");
    expect(tries[5].body.errors.code[0]).toBe("Too many incorrect codes. Request a new code.");
    expect((await guess.get("/api/me")).status).toBe(400);
    // An account that does not exist answers the same.
    const nobody = await guess.post(
      "/api/login",
      { email: "lockout-nobody@example.com", password: "x" },
      from(151),
    );
    for (let i = 0; i < 12; i++)
      await attacker.post(
        "/api/login",
        { email: "lockout-nobody@example.com", password: `w-${i}` },
        from(160 + i),
      );
    expect(nobody.status).toBe(422);
    const guardedNobody = await guess.post(
      "/api/login",
      { email: "lockout-nobody@example.com", password: "x" },
      from(190),
    );
    expect(guardedNobody.status).toBe(200);
    // The owner is still let in.
    await signIn(api.url, email, password, "10.72.0.1");
  }, 90_000);

  it("ten failures from one address refuse that address for the account (429), not the owner elsewhere", async () => {
    const { email, password } = await person("lockout-pair@example.com");
    const client = new HttpClient(api.url);
    const one = { "X-Forwarded-For": "10.73.0.1" };
    for (let i = 0; i < 10; i++) await client.post("/api/login", { email, password: `wrong-${i}` }, one);
    const refused = await client.post("/api/login", { email, password }, one);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    await signIn(api.url, email, password, "10.73.0.2");
  }, 90_000);
});

describe("code limits under parallel requests", () => {
  it("compares at most five guesses of an emailed code, and the right code after them fails", async () => {
    const { email, password } = await person("race-code@example.com");
    const client = new HttpClient(api.url);
    expect((await client.post("/api/login", { email, password })).status).toBe(200);
    const code = await latestCode(client, email);
    const wrongCode = (n: number) => String((Number(code) + 1 + n) % 1_000_000).padStart(6, "0");
    const answers = await Promise.all(
      Array.from({ length: 91 }, (_, i) => client.post("/api/email/verify", { code: wrongCode(i) })),
    );
    const messages = answers.map((a) => a.body.errors?.code?.[0] as string);
    expect(answers.every((a) => a.status === 422)).toBe(true);
    // Exactly five were compared ("N tries left" or the fifth's "Too many"), the rest refused unseen.
    const compared = messages.filter((m) => /tries left|try left/.test(m));
    expect(compared).toHaveLength(4);
    expect(messages.filter((m) => /Too many incorrect codes/.test(m))).toHaveLength(87);
    const late = await client.post("/api/email/verify", { code });
    expect(late.status).toBe(422);
    expect((await client.get("/api/me")).status).toBe(400);
  }, 90_000);

  it("sends at most one code for parallel resends", async () => {
    const { email, password } = await person("race-resend@example.com");
    const client = new HttpClient(api.url);
    expect((await client.post("/api/login", { email, password })).status).toBe(200);
    const statuses = (
      await Promise.all(Array.from({ length: 30 }, () => client.post("/api/email/resend")))
    ).map((a) => a.status);
    // The code from sign-in started the 30-second gap: every resend in it is refused.
    expect(statuses.every((s) => s === 429)).toBe(true);
    expect(await mails(email, /sign-in code/)).toHaveLength(1);
  });
});

describe("forgot-password limits and timing", () => {
  it("sends at most three reset emails for 60 parallel requests", async () => {
    const { email } = await person("race-reset@example.com");
    const client = new HttpClient(api.url);
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => client.post("/api/forgot-password", { email })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await mails(email, /Reset your password/)).toHaveLength(3);
  }, 90_000);

  it("answers in the same time for a known and an unknown account", async () => {
    const client = new HttpClient(api.url);
    const time = async (email: string) => {
      const started = performance.now();
      const answer = await client.post("/api/forgot-password", { email });
      expect(answer.status).toBe(200);
      return performance.now() - started;
    };
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 10; i++) {
      // A known account that is not rate limited each time (three emails an hour per account).
      const { email } = await person(`timing-${i}@example.com`);
      known.push(await time(email));
      unknown.push(await time(`timing-unknown-${i}@example.com`));
    }
    const gap = Math.abs(median(known) - median(unknown));
    expect(gap, `known ${median(known)} ms, unknown ${median(unknown)} ms`).toBeLessThan(25);
    expect(median(unknown)).toBeGreaterThanOrEqual(Number(process.env.FORGOT_PASSWORD_ANSWER_MS) - 5);
  }, 90_000);
});

describe("links, states and sessions", () => {
  it("ends every outstanding reset link once a password is set", async () => {
    const { email } = await person("stale-link@example.com");
    const client = new HttpClient(api.url);
    await client.post("/api/forgot-password", { email });
    await client.post("/api/forgot-password", { email });
    const tokens = (await mails(email, /Reset your password/)).map((m) =>
      decodeURIComponent(/token=([^\s&]+)/.exec(m.text)![1]),
    );
    expect(tokens).toHaveLength(2);
    const [newer, older] = tokens; // the mailbox is newest first
    const set = await client.post("/api/reset-password", {
      token: newer,
      password: "a-fresh-long-passphrase",
      password_confirmation: "a-fresh-long-passphrase",
    });
    expect(set.status).toBe(200);
    expect((await client.post("/api/validate-link", { token: older })).body.data.valid).toBe(false);
    const stale = await client.post("/api/reset-password", {
      token: older,
      password: "an-attackers-passphrase",
      password_confirmation: "an-attackers-passphrase",
    });
    expect(stale.status).toBe(422);
    expect(stale.body.errors.token[0]).toMatch(/expired or has already been used/);
    await signIn(api.url, email, "a-fresh-long-passphrase");
  });

  it("replaces the session token when the code is passed and deletes the pending session", async () => {
    const { email, password } = await person("rotate@example.com");
    const client = new HttpClient(api.url);
    await client.post("/api/login", { email, password });
    const pendingCookie = client.cookieHeader();
    const verify = await client.post("/api/email/verify", { code: await latestCode(client, email) });
    expect(verify.status).toBe(200);
    expect(verify.headers.getSetCookie().join()).toMatch(/gym_session=/);
    expect(client.cookieHeader()).not.toBe(pendingCookie);
    expect((await client.get("/api/me")).status).toBe(200);
    // The token handed out at the password step no longer opens anything.
    const old = await new HttpClient(api.url).get("/api/me", { Cookie: pendingCookie });
    expect(old.status).toBe(401);
  });
});
