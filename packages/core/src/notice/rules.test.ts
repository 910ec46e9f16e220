import { describe, expect, it } from "vitest";
import { cardLastDay, lastComparable, mandatoryReason } from "./rules";

describe("when a payment reminder is sent whatever the member's preferences", () => {
  const last = { due_on: "2027-03-01", total: 6180 };
  it("the same amount as the last charge, no pause between: optional", () => {
    expect(mandatoryReason({ due_on: "2027-04-01", total: 6180, last, pauses: [] })).toBeNull();
  });
  it("a different amount (a price change, a joining fee before, a break fee): required", () => {
    expect(mandatoryReason({ due_on: "2027-04-01", total: 6500, last, pauses: [] })).toBe("changed");
    expect(mandatoryReason({ due_on: "2027-04-01", total: 6180, last: null, pauses: [] })).toBe("changed");
  });
  it("the first charge after a pause that ended since the last one: required", () => {
    const pauses = [{ end_date: "2027-03-20" }];
    expect(mandatoryReason({ due_on: "2027-04-01", total: 6180, last, pauses })).toBe("after_pause");
    // A pause that ended before the last charge does not count again.
    expect(
      mandatoryReason({ due_on: "2027-04-01", total: 6180, last, pauses: [{ end_date: "2027-02-10" }] }),
    ).toBeNull();
  });
});

describe("a card's last day", () => {
  it("is the end of its expiry month", () => {
    expect(cardLastDay(7, 2027)).toBe("2027-07-31");
    expect(cardLastDay(2, 2028)).toBe("2028-02-29");
    expect(cardLastDay(12, 2027)).toBe("2027-12-31");
  });
});

describe("the last payment a reminder compares with", () => {
  const period = (due_on: string, amount: number, more: Record<string, unknown> = {}) => ({
    status: "sent" as const,
    is_retry: false,
    due_on,
    amount,
    surcharge: 0,
    charge_index: 1,
    meta: undefined as Record<string, unknown> | undefined,
    ...more,
  });
  it("is the latest scheduled period charge that took money", () => {
    expect(lastComparable([period("2027-03-01", 2490), period("2027-03-08", 2000)], "2027-03-15")).toEqual({
      due_on: "2027-03-08",
      total: 2000,
    });
  });
  it("skips a desk payment, a break fee, a retry, a failed charge and one paid wholly by credit", () => {
    const others = [
      period("2027-03-09", 4000, { charge_index: undefined, meta: { kind: "manual" } }),
      period("2027-03-10", 2500, { charge_index: undefined, meta: { kind: "break_fee" } }),
      period("2027-03-11", 2490, { is_retry: true }),
      period("2027-03-12", 2490, { status: "failed" }),
      period("2027-03-13", 0),
    ];
    expect(lastComparable([period("2027-03-01", 2490), ...others], "2027-03-15")).toEqual({
      due_on: "2027-03-01",
      total: 2490,
    });
    expect(lastComparable(others, "2027-03-15")).toBeNull();
  });
});
