import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret, maskedSecret, maskSecret } from "./secrets";

describe("secrets at rest", () => {
  it("round-trips, and each encryption differs (random IV)", () => {
    const a = encryptSecret("app_secret_abcdef123456", "gym:1:akahu_app_secret");
    const b = encryptSecret("app_secret_abcdef123456", "gym:1:akahu_app_secret");
    expect(a).not.toBe(b);
    expect(a).not.toContain("abcdef");
    expect(decryptSecret(a, "gym:1:akahu_app_secret")).toBe("app_secret_abcdef123456");
  });

  it("refuses a ciphertext moved to another record or field, or tampered with", () => {
    const stored = encryptSecret("secret-value-1234", "gym:1:branch_secret");
    expect(() => decryptSecret(stored, "gym:2:branch_secret")).toThrow();
    const parts = stored.split(".");
    parts[3] = Buffer.from("changed").toString("base64url");
    expect(() => decryptSecret(parts.join("."), "gym:1:branch_secret")).toThrow();
  });

  it("refuses a value encrypted under another key", () => {
    const previous = process.env.ENCRYPTION_KEY;
    process.env.ENCRYPTION_KEY = "first-key-for-this-test";
    const stored = encryptSecret("value-1234", "ctx");
    process.env.ENCRYPTION_KEY = "second-key-for-this-test";
    expect(() => decryptSecret(stored, "ctx")).toThrow();
    process.env.ENCRYPTION_KEY = previous ?? "";
  });

  it("masks: set flag and at most the last four characters", () => {
    expect(maskSecret(null)).toEqual({ set: false, masked: null });
    expect(maskSecret("short")).toEqual({ set: true, masked: "••••" });
    expect(maskSecret("app_secret_abcdef123456")).toEqual({ set: true, masked: "••••3456" });
    expect(maskedSecret(encryptSecret("app_secret_abcdef123456", "c"), "c")).toEqual({
      set: true,
      masked: "••••3456",
    });
    expect(maskedSecret("garbage", "c")).toEqual({ set: true, masked: "••••" });
  });
});
