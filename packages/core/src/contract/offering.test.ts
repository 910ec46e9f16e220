import { describe, expect, it } from "vitest";
import { fieldErrors } from "../validation";
import { offeringInput } from "./offering";

const errorsOf = (input: unknown) => {
  const result = offeringInput.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
};

describe("offering input", () => {
  it("trims text and fills the defaults", () => {
    expect(offeringInput.parse({ name: "  Anytime ", description: "  ", type: "24_7" })).toEqual({
      name: "Anytime",
      description: null,
      type: "24_7",
      all_gyms_access: true,
      gyms: [],
      mandated: false,
      hours_mandated: false,
      prices_mandated: false,
      hours: [],
    });
  });

  it("gives the spec's messages, all at once", () => {
    expect(errorsOf({ name: " ", all_gyms_access: false, gyms: [] })).toEqual({
      name: ["Value is required"],
      type: ["Value is required"],
      gyms: ["Select at least one gym"],
    });
    expect(errorsOf({ name: "Off-Peak", type: "limited_access", hours_mandated: true, hours: [] })).toEqual({
      hours: ["Add at least one day"],
    });
    expect(
      errorsOf({
        name: "Off-Peak",
        type: "limited_access",
        hours: [{ day: 1, open_at: "09:00", close_at: "09:00" }, { day: 2 }],
      }),
    ).toEqual({
      "hours.0.close_at": ["Close time must be after open time"],
      "hours.1.open_at": ["Value is required"],
      "hours.1.close_at": ["Value is required"],
    });
  });

  it("asks for hours only when a Limited Hours offering mandates them", () => {
    expect(errorsOf({ name: "Anytime", type: "24_7", hours_mandated: true, hours: [] })).toEqual({});
    expect(errorsOf({ name: "Off-Peak", type: "limited_access", hours_mandated: false, hours: [] })).toEqual(
      {},
    );
  });
});
