import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldErrors, parse, requiredText } from "./validation";

const schema = z.object({ name: requiredText(), amount: z.number().int(), active: z.boolean() });
const errorsOf = (input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
};

describe("validation messages", () => {
  it("says Value is required for missing, null and blank-after-trim values", () => {
    expect(errorsOf({ name: "   ", amount: null })).toEqual({
      name: ["Value is required"],
      amount: ["Value is required"],
      active: ["Value is required"],
    });
  });

  it("says what is expected for a value of the wrong kind", () => {
    expect(errorsOf({ name: "Gym", amount: "24.00", active: "yes" })).toEqual({
      amount: ["Enter a number"],
      active: ["Choose yes or no"],
    });
  });

  it("keeps a schema's own message", () => {
    expect(errorsOf({ name: "Gym", amount: 1.5, active: true }).amount[0]).toMatch(/integer|whole/i);
  });

  it("throws a 422 ValidationError from parse", () => {
    expect(() => parse(schema, {})).toThrowError(expect.objectContaining({ status: 422 }));
  });
});
