import { describe, expect, it } from "vitest";
import { paymentTypeLabel } from "./present";

describe("a payment method as a person knows it", () => {
  it("names a card by brand and last four", () => {
    expect(paymentTypeLabel({ type: "stripe_card", card_type: "visa", last_four: "4242" })).toBe(
      "Visa •••• 4242",
    );
    expect(paymentTypeLabel({ type: "stripe_card", card_type: "amex", last_four: "0005" })).toBe(
      "American Express •••• 0005",
    );
    expect(paymentTypeLabel({ type: "stripe_card", card_type: "somebrand", last_four: "1111" })).toBe(
      "Card •••• 1111",
    );
    expect(paymentTypeLabel({ type: "stripe_card" })).toBe("Card");
  });

  it("names a bank account by the last four digits of its base number, when known", () => {
    expect(paymentTypeLabel({ type: "bank_account", account_number: "12-3140-•••1323-50" })).toBe(
      "Bank account ••••1323",
    );
    expect(paymentTypeLabel({ type: "bank_account", account_number: "••-••••-•••8389-00" })).toBe(
      "Bank account ••••8389",
    );
    expect(paymentTypeLabel({ type: "bank_account", account_number: "••••" })).toBe("Bank account");
    expect(paymentTypeLabel({ type: "bank_account" })).toBe("Bank account");
  });
});
