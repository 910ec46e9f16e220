import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { date, recurringFrequency } from "./arbitraries.test-support";
import { addDays } from "./calendar";
import { calculateProRata } from "./pro-rata";
import { isProRataBillingDateAllowed, latestProRataBillingDate } from "./pro-rata-window";

describe("latestProRataBillingDate", () => {
  it.each([
    ["2025-06-01", "weekly", "2025-06-07"],
    ["2025-06-01", "fortnightly", "2025-06-14"],
    ["2025-06-01", "daily", "2025-06-01"],
    ["2025-03-10", "monthly", "2025-04-09"],
    // 31 Jan → 28 Feb is allowed (28 of the 31 days from 28 Jan); 1 Mar is not (its period starts 1 Feb).
    ["2025-01-31", "monthly", "2025-02-28"],
    ["2025-02-28", "monthly", "2025-03-27"],
    ["2024-02-29", "yearly", "2025-02-28"],
  ] as const)("start %s, %s: latest billing date %s", (start, frequency, latest) => {
    expect(latestProRataBillingDate(start, frequency)).toBe(latest);
    expect(
      calculateProRata({
        amount: 1000,
        billing_frequency: frequency,
        start_date: start,
        billing_date: latest,
      }).ok,
    ).toBe(true);
    const next = calculateProRata({
      amount: 1000,
      billing_frequency: frequency,
      start_date: start,
      billing_date: addDays(latest, 1),
    });
    expect(next.ok).toBe(false);
  });

  it("agrees with calculateProRata on every date from the start to the latest and the day after", () => {
    fc.assert(
      fc.property(date, recurringFrequency, (start, frequency) => {
        const latest = latestProRataBillingDate(start, frequency);
        expect(isProRataBillingDateAllowed(start, latest, frequency)).toBe(true);
        expect(isProRataBillingDateAllowed(start, addDays(latest, 1), frequency)).toBe(false);
        for (const billing of [start, addDays(start, 1), latest, addDays(latest, -1)]) {
          if (billing < start || billing > latest) continue;
          const r = calculateProRata({
            amount: 5000,
            billing_frequency: frequency,
            start_date: start,
            billing_date: billing,
          });
          expect(r.ok).toBe(true);
        }
        const after = calculateProRata({
          amount: 5000,
          billing_frequency: frequency,
          start_date: start,
          billing_date: addDays(latest, 1),
        });
        expect(after.ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});
