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
