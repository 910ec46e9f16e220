import { describe, expect, it } from "vitest";
import type { PaymentRecord } from "../payment/store";
import { defaultMapping } from "./mapping";
import { matchPayoutCharges } from "./payout-events";
import { payoutJournal } from "./payout-journal";
import { payoutProblems } from "./payouts";

/**
 * docs/accounting.md "Payouts": a payout's journal (bank and fees debited, clearing credited, the
 * worked day's payout line by line), its charges matched to our payments by the PaymentIntent each
 * payment holds, and the "doesn't add up" flag.
 */
const mapping = defaultMapping;

describe("a payout's journal", () => {
  it("the worked day's payout: $39.55 of card payments less a $1.05 fee reaches the bank as $38.50", () => {
    const journal = payoutJournal({
      provider: "stripe",
      ref: "po_1",
      arrival_date: "2026-11-05",
      gym_name: "Harbour Fitness Ponsonby",
      amount: 3_850,
      fee: 105,
      mapping,
    });
    expect(journal.narration).toBe("Harbour Fitness Ponsonby: Stripe payout po_1 5/11/2026");
    expect(journal.lines).toEqual([
      { description: "Deposit: Stripe payout po_1", account: "090", tax_rate: "No GST", amount: 3_850 },
      { description: "Stripe fees", account: "404", tax_rate: "15% GST on Expenses", amount: 105 },
      {
        description: "Paid out: card payments (Stripe)",
        account: "621",
        tax_rate: "No GST",
        amount: -3_955,
      },
    ]);
    expect(journal.lines.reduce((s, l) => s + l.amount, 0)).toBe(0);
  });

  it("an Akahu settlement has no fee line and empties Akahu clearing", () => {
    const journal = payoutJournal({
      provider: "akahu",
      ref: "2026-11-03",
      arrival_date: "2026-11-03",
      gym_name: "Ponsonby",
      amount: 2_400,
      fee: 0,
      mapping,
    });
    expect(journal.lines.map((l) => [l.account, l.amount])).toEqual([
      ["090", 2_400],
      ["622", -2_400],
    ]);
  });
});

describe("a payout's charges against our payments", () => {
  const ours = (p: Partial<PaymentRecord>) =>
    ({
      organisation_id: "org_1",
      payment_id: "pay_1",
      gym_id: "gym_1",
      stripe_id: "pi_1",
      status: "sent",
      amount: 2_400,
      surcharge: 90,
      member_name: "Casey",
      ...p,
    }) as PaymentRecord;
  const bound = { organisation_id: "org_1", gym_id: "gym_1" };
  const charge = (payment_intent: string, payment_id: string, amount = 2_490, organisation_id = "org_1") => ({
    payment_intent,
    metadata: { payment_id, organisation_id },
    amount,
    fee: 97,
    net: amount - 97,
  });

  it("matches each charge by the PaymentIntent the payment holds; anything else says why", () => {
    const payments = new Map([
      ["pay_1", ours({})],
      ["pay_2", ours({ payment_id: "pay_2", stripe_id: "pi_2" })],
      ["pay_3", ours({ payment_id: "pay_3", stripe_id: "pi_3", gym_id: "gym_2" })],
      ["pay_4", ours({ payment_id: "pay_4", stripe_id: "pi_4", status: "failed" })],
    ]);
    const lines = matchPayoutCharges(
      {
        charges: [
          charge("pi_1", "pay_1"),
          // Someone else's PaymentIntent carrying our payment's metadata.
          charge("pi_other", "pay_2"),
          charge("pi_3", "pay_3"),
          charge("pi_4", "pay_4"),
          charge("pi_1", "pay_1", 2_400),
          charge("pi_5", "pay_5", 2_490, "org_2"),
        ],
      },
      bound,
      payments,
    );
    expect(lines.map((l) => [l.payment_id, l.problem])).toEqual([
      ["pay_1", null],
      ["pay_2", "not the PaymentIntent payment pay_2 holds"],
      ["pay_3", "a payment of another gym"],
      ["pay_4", "the payment is failed, not paid"],
      ["pay_1", "we charged $24.90"],
      [null, "not one of our payments"],
    ]);
    expect(lines[0]).toMatchObject({ member_name: "Casey", provider_ref: "pi_1", amount: 2_490, fee: 97 });
  });

  it("doesn't add up when a line is not ours as charged, or the payments less the fees are not the deposit", () => {
    const line = {
      payment_id: "pay_1",
      provider_ref: "pi_1",
      member_name: null,
      amount: 2_490,
      fee: 97,
      problem: null,
    };
    expect(payoutProblems({ amount: 2_393, fee: 97, gross: 2_490, lines: [line] })).toEqual([]);
    expect(payoutProblems({ amount: 2_390, fee: 97, gross: 2_490, lines: [line] })).toEqual([
      "the payments ($24.90) less the fees ($0.97) are not the deposit ($23.90)",
    ]);
    expect(
      payoutProblems({
        amount: 2_393,
        fee: 97,
        gross: 2_490,
        lines: [{ ...line, problem: "not one of our payments" }],
      }),
    ).toEqual(["pi_1 ($24.90): not one of our payments"]);
  });
});
