import { describe, expect, it } from "vitest";
import { formatIrdNumber, gstIncluded, isValidIrdNumber } from "./gst";

describe("IRD (GST) numbers: Inland Revenue's check digit", () => {
  // Inland Revenue's published test numbers (the RWT/NRWT and IR-number validation specification).
  it.each([
    ["49091850", true],
    ["35901981", true],
    ["49098576", true],
    ["136410132", true],
    ["49-091-850", true],
    ["136 410 132", true],
    ["136410133", false],
    ["9125568", false],
    ["49091851", false],
    ["150000001", false],
    ["abc", false],
    ["", false],
  ])("%s is valid: %s", (input, valid) => {
    expect(isValidIrdNumber(input)).toBe(valid);
  });

  it("formats the way IRD writes them", () => {
    expect(formatIrdNumber("49091850")).toBe("49-091-850");
    expect(formatIrdNumber("136410132")).toBe("136-410-132");
  });

  it("never meets a half cent (6 × total is even, 23 is odd), so the rounding is plain nearest", () => {
    for (let total = 0; total < 20_000; total++) {
      const exact = (total * 3) / 23;
      expect(Math.abs(gstIncluded(total) - exact)).toBeLessThan(0.5);
    }
  });
});
