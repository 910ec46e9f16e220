import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cents } from "./arbitraries.test-support";
import {
  amountWithSurcharge,
  applyBasisPoints,
  basisPointsSchema,
  breakFee,
  formatBasisPoints,
  formatCents,
  noSurcharge,
  parsePercentToBasisPoints,
  roundHalfUp,
  surcharge,
  surchargeSettingsSchema,
} from "./money";

/** Reference: quotient and remainder, bump when 2·remainder >= divisor (halves away from zero). */
function referenceRound(n: bigint, d: bigint): bigint {
  const sign = n < 0n !== d < 0n ? -1n : 1n;
  const a = n < 0n ? -n : n;
  const b = d < 0n ? -d : d;
  const q = a / b;
  const r = a % b;
  return sign * (2n * r >= b ? q + 1n : q);
}

const basisPoints = fc.integer({ min: 0, max: 10_000 });
const settings = fc.record({
  percentBasisPoints: basisPoints,
  fixedCents: fc.integer({ min: 0, max: 1000 }),
});

describe("roundHalfUp", () => {
  it("matches a BigInt reference on numbers", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.integer({ min: -100_000, max: 100_000 }).filter((d) => d !== 0),
        (n, d) => {
          expect(roundHalfUp(n, d)).toBe(Number(referenceRound(BigInt(n), BigInt(d))));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("is exact beyond float precision when given BigInt", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.bigInt({ min: 10n ** 15n, max: 10n ** 16n }),
        (n, d) => {
          expect(BigInt(roundHalfUp(n, d))).toBe(referenceRound(n, d));
        },
      ),
      { numRuns: 1000 },
    );
    // 9007199254740993 / 2 = 4503599627370496.5 -> ...497, which float division would get wrong
    expect(roundHalfUp(9007199254740993n, 2n)).toBe(4503599627370497);
  });

  it("rounds exact halves up (away from zero) and is symmetric", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: 1, max: 1e5 }), (n, d) => {
        expect(roundHalfUp(2 * n + 1, 2)).toBe(n + 1);
        expect(roundHalfUp(-n, d)).toBe(-roundHalfUp(n, d) || 0);
        const r = roundHalfUp(n, d);
        expect(Math.abs(r * d - n) * 2).toBeLessThanOrEqual(d);
      }),
    );
  });

  it("rejects a zero denominator, non-integers and unsafe results", () => {
    expect(() => roundHalfUp(1, 0)).toThrow(RangeError);
    expect(() => roundHalfUp(1.5, 2)).toThrow(RangeError);
    expect(() => roundHalfUp(10n ** 20n, 1n)).toThrow(RangeError);
  });
});

describe("formatCents", () => {
  const intl = new Intl.NumberFormat("en-NZ", { style: "currency", currency: "NZD" });

  it("matches Intl en-NZ NZD formatting", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (c) => {
        expect(formatCents(c)).toBe(intl.format(c / 100));
      }),
      { numRuns: 1000 },
    );
  });

  it("rejects fractional cents", () => {
    expect(() => formatCents(1.5)).toThrow(RangeError);
  });
});

describe("basis points", () => {
  it("parse and format are inverse", () => {
    fc.assert(
      fc.property(basisPoints, (bp) => {
        expect(parsePercentToBasisPoints(formatBasisPoints(bp))).toBe(bp);
      }),
    );
    expect(formatBasisPoints(250)).toBe("2.5%");
    expect(formatBasisPoints(195)).toBe("1.95%");
    expect(formatBasisPoints(0)).toBe("0%");
    expect(formatBasisPoints(10_000)).toBe("100%");
    expect(parsePercentToBasisPoints("2.50 %")).toBe(250);
    expect(parsePercentToBasisPoints("10")).toBe(1000);
    for (const bad of ["2.555", "-1", "abc", "", "100.01", "1e2"])
      expect(parsePercentToBasisPoints(bad), bad).toBeNull();
    expect(basisPointsSchema.safeParse(10_001).success).toBe(false);
    expect(basisPointsSchema.safeParse(2.5).success).toBe(false);
  });

  it("applyBasisPoints is a single half-up rounding of amount × bp / 10000", () => {
    fc.assert(
      fc.property(cents, basisPoints, (amount, bp) => {
        expect(applyBasisPoints(amount, bp)).toBe(
          Number(referenceRound(BigInt(amount) * BigInt(bp), 10_000n)),
        );
      }),
    );
  });
});

describe("surcharge", () => {
  it("matches a BigInt reference and is never negative", () => {
    fc.assert(
      fc.property(cents, settings, (amount, s) => {
        const expected =
          amount === 0
            ? 0n
            : referenceRound(
                BigInt(amount) * BigInt(s.percentBasisPoints) + BigInt(s.fixedCents) * 10_000n,
                10_000n,
              );
        const value = surcharge(amount, s);
        expect(value).toBe(Number(expected));
        expect(value).toBeGreaterThanOrEqual(0);
        expect(amountWithSurcharge(amount, s)).toBe(amount + value);
        expect(surchargeSettingsSchema.safeParse(s).success).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("no surcharge for bank payments, and invalid settings throw", () => {
    fc.assert(
      fc.property(cents, (amount) => {
        expect(surcharge(amount, noSurcharge)).toBe(0);
      }),
    );
    expect(() => surcharge(-1, noSurcharge)).toThrow(RangeError);
    expect(() => surcharge(100, { percentBasisPoints: 2.5, fixedCents: 0 })).toThrow(RangeError);
    expect(() => surcharge(100, { percentBasisPoints: 10_001, fixedCents: 0 })).toThrow(RangeError);
    expect(() => surcharge(100, { percentBasisPoints: 0, fixedCents: -1 })).toThrow(RangeError);
  });
});

describe("breakFee", () => {
  it("is between 0 and the remaining value", () => {
    fc.assert(
      fc.property(cents, basisPoints, (remaining, bp) => {
        const fee = breakFee(remaining, bp);
        expect(fee).toBeGreaterThanOrEqual(0);
        expect(fee).toBeLessThanOrEqual(remaining);
      }),
    );
    expect(breakFee(12345, 10_000)).toBe(12345);
  });
});
