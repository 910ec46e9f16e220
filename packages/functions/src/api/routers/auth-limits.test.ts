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
  it("compares at most 10 passwords for one account, and the right one at position 60 gets no 200", async () => {
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
    // At most 10 were compared (each either 422, the 10th failure's 429, or the right one's 200);
    // everything else was refused before comparing.
    expect(count(statuses, 422)).toBeLessThanOrEqual(9);
    expect(count(statuses, 429)).toBeGreaterThanOrEqual(91);
    expect(count(statuses, 422) + count(statuses, 429) + count(statuses, 200)).toBe(101);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);

    // Once the limit is reached the right password is refused too.
    const late = await client.post("/api/login", { email, password }, { "X-Forwarded-For": "10.61.0.1" });
    expect(late.status).toBe(429);
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
