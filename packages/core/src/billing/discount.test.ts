import { describe, expect, it } from "vitest";
import { discountOf, isDiscountedCharge } from "./discount";

const full = (index: number, amount = 2_400, joining_fee = 0) => ({
  index,
  amount,
  joining_fee,
  is_pro_rata: false,
});

describe("a promo code's discount on a charge (docs/offers.md)", () => {
  it("takes a percentage of the period part, never of the joining fee, rounded half-up once", () => {
    const half = { kind: "percent" as const, value: 5_000, periods: 1 };
    expect(discountOf(half, full(0, 2_900, 500), false)).toBe(1_200);
    // 33.33% of $24.01 = 800.2533 → 800; of $24.05 = 801.5865 → 802.
    const third = { kind: "percent" as const, value: 3_333, periods: null };
    expect(discountOf(third, full(0, 2_401), false)).toBe(800);
    expect(discountOf(third, full(0, 2_405), false)).toBe(802);
  });

  it("takes a fixed amount at most the period part", () => {
    const ten = { kind: "fixed" as const, value: 1_000, periods: null };
    expect(discountOf(ten, full(3), false)).toBe(1_000);
    expect(discountOf({ ...ten, value: 5_000 }, full(3, 2_900, 500), false)).toBe(2_400);
  });

  it("covers the first N full periods, a pro-rata stub before them too, then stops", () => {
    const two = { kind: "percent" as const, value: 5_000, periods: 2 };
    // Without a stub: charges 0 and 1 are full periods 1 and 2.
    expect([0, 1, 2].map((i) => isDiscountedCharge(two, full(i), false))).toEqual([true, true, false]);
    // With a stub: charge 0 is the stub, charges 1 and 2 the first two full periods.
    const stub = { index: 0, amount: 887, joining_fee: 0, is_pro_rata: true };
    expect(isDiscountedCharge(two, stub, true)).toBe(true);
    expect([1, 2, 3].map((i) => isDiscountedCharge(two, full(i), true))).toEqual([true, true, false]);
    // Forever.
    expect(isDiscountedCharge({ ...two, periods: null }, full(500), false)).toBe(true);
  });

  it("never leaves a positive charge below the card minimum ($0.50)", () => {
    // 99% of $24.00 leaves $0.24: the discount is cut to leave $0.50.
    expect(discountOf({ kind: "percent", value: 9_900, periods: 1 }, full(0), false)).toBe(2_350);
    // 100% leaves $0.00: nothing is charged.
    expect(discountOf({ kind: "percent", value: 10_000, periods: 1 }, full(0), false)).toBe(2_400);
    // $0.40 price, 50% off leaves $0.20: nothing can leave $0.50, so nothing is taken off.
    expect(discountOf({ kind: "percent", value: 5_000, periods: 1 }, full(0, 40), false)).toBe(0);
  });
});
