import { describe, expect, it } from "vitest";
import { cardLastDay, mandatoryReason } from "./rules";

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
