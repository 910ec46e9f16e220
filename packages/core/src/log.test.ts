import { afterEach, describe, expect, it, vi } from "vitest";
import { addLogContext, log, logContext, withLogContext } from "./log";

/** The lines written while `fn` runs, parsed. */
async function linesOf(fn: () => unknown | Promise<unknown>): Promise<Record<string, unknown>[]> {
  vi.stubEnv("LOG_LEVEL", "debug");
  const lines: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  };
  const out = vi.spyOn(process.stdout, "write").mockImplementation(capture);
  const err = vi.spyOn(process.stderr, "write").mockImplementation(capture);
  try {
    await fn();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return lines.map((line) => JSON.parse(line));
}

afterEach(() => vi.unstubAllEnvs());

describe("log context", () => {
  it("puts the request id and organisation on every line of the work, across awaits, and nowhere else", async () => {
    const lines = await linesOf(async () => {
      log.info("before");
      await withLogContext({ request_id: "req-1" }, async () => {
        log.info("start");
        await new Promise((resolve) => setTimeout(resolve, 1));
        addLogContext({ organisation_id: "org-1" });
        await Promise.all([
          (async () => log.warn("one"))(),
          (async () => {
            await Promise.resolve();
            log.error("two", { detail: "x" });
          })(),
        ]);
      });
      log.info("after");
    });
    expect(lines.map((l) => [l.message, l.request_id, l.organisation_id])).toEqual([
      ["before", undefined, undefined],
      ["start", "req-1", undefined],
      ["one", "req-1", "org-1"],
      ["two", "req-1", "org-1"],
      ["after", undefined, undefined],
    ]);
  });

  it("keeps two concurrent requests apart", async () => {
    const lines = await linesOf(() =>
      Promise.all(
        ["a", "b"].map((id) =>
          withLogContext({ request_id: id }, async () => {
            await new Promise((resolve) => setTimeout(resolve, id === "a" ? 5 : 1));
            addLogContext({ organisation_id: `org-${id}` });
            log.info(`line ${id}`);
          }),
        ),
      ),
    );
    expect(lines.map((l) => [l.message, l.request_id, l.organisation_id]).sort()).toEqual([
      ["line a", "a", "org-a"],
      ["line b", "b", "org-b"],
    ]);
  });

  it("a nested context adds to its parent without changing it", () => {
    withLogContext({ request_id: "outer", organisation_id: "org" }, () => {
      withLogContext({ payment_id: "pay" }, () =>
        expect(logContext()).toEqual({ request_id: "outer", organisation_id: "org", payment_id: "pay" }),
      );
      expect(logContext()).toEqual({ request_id: "outer", organisation_id: "org" });
    });
    expect(logContext()).toEqual({});
  });
});

describe("log redaction", () => {
  it("never writes personal data or secrets: what the webhook log redacts, and email addresses anywhere", async () => {
    const [line] = await linesOf(() =>
      log.error("charge for ana.smith@example.com failed", {
        email: "ana.smith@example.com",
        phone: "+64 21 555 0101",
        member: { name_ok: "x", address: "1 Queen St", date_of_birth: "1990-01-01" },
        token: "tok_live_abc",
        session_secret: "s3cret",
        authorization: "Bearer abc",
        account_number: "12-3140-0171323-50",
        error: "card 4242 4242 4242 4242 declined for bob@example.org; bank 12-3140-0171323-50",
        password: "hunter2",
        payment_id: "pay_123",
        amount: 2999,
      }),
    );
    const text = JSON.stringify(line);
    for (const secret of [
      "ana.smith@example.com",
      "bob@example.org",
      "+64 21 555 0101",
      "1 Queen St",
      "1990-01-01",
      "tok_live_abc",
      "s3cret",
      "Bearer abc",
      "0171323",
      "4242 4242 4242 4242",
      "hunter2",
    ]) {
      expect(text, secret).not.toContain(secret);
    }
    // What is needed to debug stays.
    expect(line).toMatchObject({ payment_id: "pay_123", amount: 2999, level: "error" });
    expect(line.message).toBe("charge for [redacted email] failed");
    expect(line.error).toContain("…4242");
  });
});
