import { describe, expect, it } from "vitest";
import { ageOn } from "./age";

describe("age on a date (the minimum registration age)", () => {
  it("counts whole years: a birthday today counts, tomorrow does not", () => {
    expect(ageOn("2010-06-15", "2026-06-15")).toBe(16);
    expect(ageOn("2010-06-16", "2026-06-15")).toBe(15);
    expect(ageOn("2010-07-01", "2026-06-30")).toBe(15);
    expect(ageOn("1990-03-15", "2026-11-24")).toBe(36);
  });

  it("gives a 29 February birthday its year on 1 March in a common year", () => {
    expect(ageOn("2008-02-29", "2024-02-28")).toBe(15);
    expect(ageOn("2008-02-29", "2024-02-29")).toBe(16);
    expect(ageOn("2008-02-29", "2025-02-28")).toBe(16);
    expect(ageOn("2009-02-28", "2025-02-28")).toBe(16);
    expect(ageOn("2008-02-29", "2026-02-28")).toBe(17);
  });
});
