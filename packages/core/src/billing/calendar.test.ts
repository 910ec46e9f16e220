import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyDate, date, dstSeasonDate, monthEndDate } from "./arbitraries.test-support";
import {
  addDays,
  addMonthsClamped,
  aucklandDate,
  civilDateSchema,
  compareCivilDates,
  daysBetween,
  daysInMonth,
  fromEpochDay,
  isCivilDate,
  isLeapYear,
  parseCivilDate,
  startOfAucklandDay,
  toEpochDay,
} from "./calendar";

const HOUR = 3_600_000;

describe("civil dates", () => {
  it("accepts only real YYYY-MM-DD dates", () => {
    for (const ok of ["2024-02-29", "2025-12-31", "0001-01-01", "9999-12-31", "1990-01-01"]) {
      expect(isCivilDate(ok), ok).toBe(true);
      expect(civilDateSchema.safeParse(ok).success).toBe(true);
    }
    for (const bad of [
      "2025-02-29",
      "2025-13-01",
      "2025-00-10",
      "2025-04-31",
      "2025-1-01",
      "25-01-01",
      "2025-01-01T00:00",
      "",
      20250101,
      null,
      "0000-01-01",
    ]) {
      expect(isCivilDate(bad), String(bad)).toBe(false);
      expect(civilDateSchema.safeParse(bad).success).toBe(false);
    }
    expect(() => addDays("2025-02-29", 1)).toThrow(RangeError);
    expect(() => addDays("2025-02-28", 1.5)).toThrow(RangeError);
  });

  it("knows leap years and month lengths", () => {
    expect([1900, 2000, 2024, 2025, 2100].map(isLeapYear)).toEqual([false, true, true, false, false]);
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => daysInMonth(2024, m))).toEqual([
      31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
    ]);
  });

  it("counts epoch days, including years below 100", () => {
    expect(toEpochDay("1970-01-01")).toBe(0);
    expect(toEpochDay("1969-12-31")).toBe(-1);
    expect(fromEpochDay(toEpochDay("0099-03-01"))).toBe("0099-03-01");
    expect(daysBetween("0099-12-31", "0100-01-01")).toBe(1);
  });

  it("compares dates", () => {
    expect(compareCivilDates("2025-01-01", "2025-01-02")).toBe(-1);
    expect(compareCivilDates("2025-01-02", "2025-01-02")).toBe(0);
    expect(compareCivilDates("2026-01-01", "2025-12-31")).toBe(1);
  });

  it("addDays and daysBetween are inverse and integral", () => {
    fc.assert(
      fc.property(date, fc.integer({ min: -4000, max: 4000 }), (d, n) => {
        const e = addDays(d, n);
        expect(daysBetween(d, e)).toBe(n);
        expect(addDays(e, -n)).toBe(d);
        expect(Number.isInteger(daysBetween(e, d))).toBe(true);
        expect(Math.sign(compareCivilDates(e, d))).toBe(Math.sign(n));
        expect(parseCivilDate(e)).toBeTruthy();
      }),
      { numRuns: 500 },
    );
  });
});

describe("addMonthsClamped", () => {
  it("keeps the anchor day, clamped to the month's last day", () => {
    fc.assert(
      fc.property(date, fc.integer({ min: -240, max: 240 }), (anchor, n) => {
        const a = parseCivilDate(anchor);
        const r = parseCivilDate(addMonthsClamped(anchor, n));
        expect((r.year - a.year) * 12 + (r.month - a.month)).toBe(n);
        expect(r.day).toBe(Math.min(a.day, daysInMonth(r.year, r.month)));
      }),
      { numRuns: 500 },
    );
  });

  it("a clamped month-end anchor returns to its day whenever the month allows", () => {
    fc.assert(
      fc.property(
        monthEndDate,
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 1, max: 24 }),
        (anchor, n, k) => {
          const anchorDay = parseCivilDate(anchor).day;
          const later = parseCivilDate(addMonthsClamped(anchor, n + k));
          if (daysInMonth(later.year, later.month) >= anchorDay) expect(later.day).toBe(anchorDay);
          // Stepping from a clamped date instead of the anchor could only lose days, never gain them.
          const stepped = parseCivilDate(addMonthsClamped(addMonthsClamped(anchor, n), k));
          expect(stepped.day).toBeLessThanOrEqual(later.day);
        },
      ),
      { numRuns: 500 },
    );
    expect(addMonthsClamped(addMonthsClamped("2025-01-31", 1), 1)).toBe("2025-03-28"); // why never iterate
    expect(addMonthsClamped("2025-01-31", 2)).toBe("2025-03-31");
  });

  it("is strictly increasing in the number of months and 0 is identity", () => {
    fc.assert(
      fc.property(date, fc.integer({ min: -120, max: 120 }), (anchor, n) => {
        expect(addMonthsClamped(anchor, 0)).toBe(anchor);
        expect(compareCivilDates(addMonthsClamped(anchor, n), addMonthsClamped(anchor, n + 1))).toBe(-1);
        const days = daysBetween(addMonthsClamped(anchor, n), addMonthsClamped(anchor, n + 1));
        expect(days).toBeGreaterThanOrEqual(28 - 3); // e.g. 31 Jan -> 28 Feb is 28; 28 Feb -> 31 Mar is 31
        expect(days).toBeLessThanOrEqual(31 + 3);
      }),
      { numRuns: 300 },
    );
  });
});

describe("Auckland edges", () => {
  it("local midnight is an instant whose Auckland date is the day, and 1 ms earlier is the day before", () => {
    fc.assert(
      fc.property(fc.oneof(dstSeasonDate, anyDate), (d) => {
        const start = startOfAucklandDay(d);
        expect(aucklandDate(start)).toBe(d);
        expect(aucklandDate(new Date(start.getTime() - 1))).toBe(addDays(d, -1));
        // Auckland is UTC+12 or UTC+13 at midnight
        const behind = toEpochDay(d) * 24 * HOUR - start.getTime();
        expect([12 * HOUR, 13 * HOUR]).toContain(behind);
      }),
      { numRuns: 400 },
    );
  });

  it("a day is 23, 24 or 25 hours long; only DST-change Sundays differ from 24", () => {
    fc.assert(
      fc.property(dstSeasonDate, (d) => {
        const length = startOfAucklandDay(addDays(d, 1)).getTime() - startOfAucklandDay(d).getTime();
        expect([23 * HOUR, 24 * HOUR, 25 * HOUR]).toContain(length);
        if (length !== 24 * HOUR) {
          expect(new Date(`${d}T00:00:00Z`).getUTCDay()).toBe(0); // Sunday
        }
      }),
      { numRuns: 400 },
    );
  });

  it("handles the 2026 transitions and the pre-2007 rules", () => {
    const length = (d: string) =>
      (startOfAucklandDay(addDays(d, 1)).getTime() - startOfAucklandDay(d).getTime()) / HOUR;
    expect(length("2026-04-05")).toBe(25);
    expect(length("2026-09-27")).toBe(23);
    expect(length("2026-04-04")).toBe(24);
    expect(length("2026-09-28")).toBe(24);
    expect(length("2006-03-19")).toBe(25); // third Sunday of March until 2007
    expect(length("2006-10-01")).toBe(23); // first Sunday of October until 2007
  });

  it("every instant in a day maps to that day", () => {
    fc.assert(
      fc.property(dstSeasonDate, fc.double({ min: 0, max: 1, noNaN: true }), (d, t) => {
        const start = startOfAucklandDay(d).getTime();
        const end = startOfAucklandDay(addDays(d, 1)).getTime();
        const instant = new Date(start + Math.floor(t * (end - start - 1)));
        expect(aucklandDate(instant)).toBe(d);
      }),
      { numRuns: 300 },
    );
  });

  it("rejects invalid instants", () => {
    expect(() => aucklandDate(new Date(Number.NaN))).toThrow(RangeError);
  });
});
