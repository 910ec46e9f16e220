import { describe, expect, it } from "vitest";
import { paymentFailedEmail } from "./emails";

describe("payment emails", () => {
  it("greet the member by their title-cased name and end a provider's reason with one full stop", () => {
    const email = paymentFailedEmail({
      to: "isla@example.com",
      name: "isla ngata",
      gym: "Harbour Fitness Ponsonby",
      amount: 2490,
      reason: "Your card was declined.",
      hard: false,
      nextRetryOn: "2026-12-03",
      graceEndsAt: null,
    });
    expect(email.text).toContain("Hi Isla Ngata,");
    expect(email.html).toContain("Hi Isla Ngata,");
    expect(email.text).toContain("didn't go through: Your card was declined.");
    expect(email.text).not.toContain("declined..");
    expect(email.html).not.toContain("declined..");
  });
});
