import { describe, expect, it } from "vitest";
import { renderEmail } from "../email/port";
import { paymentFailedEmail } from "./emails";

describe("payment emails", () => {
  it("greet the member by their title-cased name and end a provider's reason with one full stop", async () => {
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
    // The HTML part comes from the one layout, rendered when the email is sent.
    const html = (await renderEmail(email)).html ?? "";
    expect(html).toContain("Hi Isla Ngata,");
    // The provider's reason as its own sentence, not a capital after a colon.
    expect(email.text).toContain("didn't go through. Your card was declined.");
    expect(email.text).not.toContain("declined..");
    expect(html).not.toContain("declined..");
  });
});
