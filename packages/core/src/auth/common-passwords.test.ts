import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { commonLongPasswords } from "./common-passwords";
import { isCommonPassword, newPassword, PASSWORD_MIN } from "./password-policy";

const require = createRequire(import.meta.url);

describe("common passwords", () => {
  it("holds exactly the long entries of Mozilla's list (so the copy cannot drift)", () => {
    const mozilla: { test(password: string): boolean } = require("fxa-common-password-list");
    const ours = commonLongPasswords.split("\n");
    expect(ours.length).toBeGreaterThan(3000);
    expect(ours.every((p) => p.length >= PASSWORD_MIN && mozilla.test(p))).toBe(true);
  });

  it("refuses common passwords, whatever their case, and accepts an unusual passphrase", () => {
    expect(isCommonPassword("PASSWORD123")).toBe(true);
    expect(newPassword.safeParse("qwertyuiop").success).toBe(false);
    expect(newPassword.safeParse("short").error?.issues[0].message).toBe("Use at least 10 characters");
    expect(newPassword.safeParse("tui-feijoa-harbour-42").success).toBe(true);
  });
});
