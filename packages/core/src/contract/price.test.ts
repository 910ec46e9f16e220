import { describe, expect, it } from "vitest";
import { fieldErrors } from "../validation";
import { priceInput, proRataRequest } from "./price";

const errorsOf = (schema: typeof priceInput | typeof proRataRequest, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
};

describe("price input", () => {
  it("fills the defaults; no joining fee, no term, no trial and no visits are null", () => {
    expect(priceInput.parse({ amount: 2400, billing_frequency: "weekly" })).toEqual({
      amount: 2400,
      billing_frequency: "weekly",
      private: false,
      joining_fee: null,
      term_unit: null,
      term_amount: null,
      trial_days: null,
      trial_amount: null,
      visits: null,
      valid_days: null,
      kind: null,
    });
  });

  describe('a visit pass valid for days (docs/offers.md "Visit passes")', () => {
    const pass = { amount: 12000, billing_frequency: "one_off", visits: 10, valid_days: 90 };

    it("is a pay-in-full price with visits and valid_days, and needs no term", () => {
      expect(errorsOf(priceInput, pass)).toEqual({});
      expect(priceInput.parse(pass)).toMatchObject({ visits: 10, valid_days: 90, term_unit: null });
    });

    it('accepts kind "pass" as the issue writes it: paid in full when no frequency is sent', () => {
      const body = { kind: "pass", amount: 12000, visits: 10, valid_days: 90 };
      expect(priceInput.parse(body)).toMatchObject({
        billing_frequency: "one_off",
        visits: 10,
        valid_days: 90,
      });
      expect(errorsOf(priceInput, { kind: "pass", amount: 12000 })).toEqual({
        visits: ["A pass needs its visits"],
        valid_days: ["Enter how many days the pass is valid"],
      });
      expect(errorsOf(priceInput, { ...body, billing_frequency: "weekly" })).toEqual({
        visits: ["Only a pay-in-full price can be a visit pass"],
        kind: ["These terms are not a pass price"],
      });
    });

    it("refuses days outside 1 to 3650, on a price that is no pass, or beside a term", () => {
      for (const valid_days of [0, 3651, 1.5, "ninety"])
        expect(errorsOf(priceInput, { ...pass, valid_days })).toEqual({
          valid_days: ["Enter a pass valid for 1 to 3650 days"],
        });
      expect(errorsOf(priceInput, { ...pass, visits: null })).toEqual({
        valid_days: ["Only a visit pass has days of validity: enter its visits"],
      });
      expect(errorsOf(priceInput, { ...pass, term_unit: "months", term_amount: 3 })).toEqual({
        valid_days: ["A pass is valid for its days or for a term, not both"],
      });
      expect(errorsOf(priceInput, { ...pass, kind: "pif" })).toEqual({
        kind: ["These terms are not a pay-in-full price"],
      });
    });
  });

  it("needs term unit and term amount together (spec 001 §5)", () => {
    expect(errorsOf(priceInput, { amount: 100, billing_frequency: "weekly", term_amount: 12 })).toEqual({
      term_unit: ["Please select a term unit"],
    });
    expect(errorsOf(priceInput, { amount: 100, billing_frequency: "weekly", term_unit: "months" })).toEqual({
      term_amount: ["Please enter a term amount"],
    });
    expect(
      errorsOf(priceInput, {
        amount: 100,
        billing_frequency: "weekly",
        term_unit: "months",
        term_amount: 12,
      }),
    ).toEqual({});
  });

  it("requires the amount and frequency, in whole cents", () => {
    expect(errorsOf(priceInput, {})).toEqual({
      amount: ["Value is required"],
      billing_frequency: ["Value is required"],
    });
    expect(errorsOf(priceInput, { amount: 10.5, billing_frequency: "weekly" })).toEqual({
      amount: ["Enter an amount in whole cents"],
    });
    expect(errorsOf(priceInput, { amount: 10_000_001, billing_frequency: "weekly" })).toEqual({
      amount: ["The maximum value allowed is 10000000"],
    });
  });
});

describe("pro-rata request", () => {
  it("needs two real calendar dates", () => {
    expect(errorsOf(proRataRequest, { start_date: " ", billing_date: "2025-02-29" })).toEqual({
      start_date: ["Value is required"],
      billing_date: ["Enter a date as YYYY-MM-DD"],
    });
    expect(proRataRequest.parse({ start_date: "2024-02-29", billing_date: "2024-03-01" })).toMatchObject({
      start_date: "2024-02-29",
    });
  });
});
