import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  billingFrequencies,
  billingFrequencySchema,
  billingToOrganisationFrequency,
  frequencyLabel,
  isFrequencyEnabled,
  organisationFrequencies,
  organisationToBillingFrequency,
  recurringFrequencies,
  sortFrequencies,
} from "./frequency";

describe("frequencies", () => {
  it("are in the spec's display order with PIF last", () => {
    expect(billingFrequencies).toEqual([
      "daily",
      "weekly",
      "fortnightly",
      "monthly",
      "bi_monthly",
      "quarterly",
      "twice_yearly",
      "yearly",
      "one_off",
    ]);
    expect(recurringFrequencies).toEqual(billingFrequencies.slice(0, 8));
    expect(billingFrequencies.map((f) => frequencyLabel[f]).join(", ")).toBe(
      "Daily, Weekly, Fortnightly, Monthly, Bi-monthly, Quarterly, Twice-yearly, Yearly, PIF",
    );
    expect(billingFrequencySchema.safeParse("six_monthly").success).toBe(false);
  });

  it("sortFrequencies orders any subset by display order without mutating it", () => {
    fc.assert(
      fc.property(fc.shuffledSubarray([...billingFrequencies]), (subset) => {
        const copy = [...subset];
        const sorted = sortFrequencies(subset);
        expect(subset).toEqual(copy);
        expect(sorted).toEqual(billingFrequencies.filter((f) => subset.includes(f)));
      }),
    );
  });

  it("maps organisation names both ways (six_monthly <-> twice_yearly)", () => {
    for (const org of organisationFrequencies) {
      expect(billingToOrganisationFrequency(organisationToBillingFrequency[org])).toBe(org);
    }
    expect(organisationToBillingFrequency.six_monthly).toBe("twice_yearly");
    expect(billingToOrganisationFrequency("daily")).toBeNull();
    expect(billingToOrganisationFrequency("bi_monthly")).toBeNull();
    expect(billingToOrganisationFrequency("one_off")).toBeNull();
  });

  it("isFrequencyEnabled: PIF always, daily/bi_monthly never, others when listed", () => {
    fc.assert(
      fc.property(
        fc.subarray([...organisationFrequencies]),
        fc.constantFrom(...billingFrequencies),
        (enabled, f) => {
          const expected =
            f === "one_off"
              ? true
              : f === "daily" || f === "bi_monthly"
                ? false
                : enabled.some((o) => organisationToBillingFrequency[o] === f);
          expect(isFrequencyEnabled(enabled, f)).toBe(expected);
        },
      ),
    );
  });
});
