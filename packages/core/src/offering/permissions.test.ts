import { describe, expect, it } from "vitest";
import {
  allowedBillingFrequencies,
  allowedOfferingTypes,
  enabledOrganisationFrequencies,
  frequencyNotAllowedMessage,
  typeNotAllowedMessage,
} from "./permissions";

describe("offering permissions", () => {
  it.each([
    [{ enable_offerings: true, non_stop: true, limited_access: true }, ["24_7", "limited_access"]],
    [{ enable_offerings: true, non_stop: true, limited_access: false }, ["24_7"]],
    [{ enable_offerings: true, non_stop: false, limited_access: true }, ["limited_access"]],
    [{ enable_offerings: true, non_stop: false, limited_access: false }, []],
    [{ enable_offerings: false, non_stop: true, limited_access: true }, []],
  ])("%j offers %j", (permissions, types) => {
    expect(allowedOfferingTypes(permissions)).toEqual(types);
  });

  it("explains a refused type", () => {
    expect(typeNotAllowedMessage("24_7")).toBe("24/7 offerings are not enabled for your organisation");
    expect(typeNotAllowedMessage("limited_access")).toBe(
      "Limited Hours offerings are not enabled for your organisation",
    );
  });
});

describe("price frequencies", () => {
  it("maps the organisation's names and keeps the display order; PIF is always allowed", () => {
    expect(allowedBillingFrequencies(["yearly", "six_monthly", "weekly"])).toEqual([
      "weekly",
      "twice_yearly",
      "yearly",
      "one_off",
    ]);
    expect(allowedBillingFrequencies([])).toEqual(["one_off"]);
    expect(
      allowedBillingFrequencies(["weekly", "fortnightly", "monthly", "quarterly", "six_monthly", "yearly"]),
    ).toEqual(["weekly", "fortnightly", "monthly", "quarterly", "twice_yearly", "yearly", "one_off"]);
  });

  it("ignores names it does not know", () => {
    expect(enabledOrganisationFrequencies(["weekly", "daily", "hourly"])).toEqual(["weekly"]);
    expect(allowedBillingFrequencies(["daily", "bi_monthly"])).toEqual(["one_off"]);
  });

  it("explains a refused frequency", () => {
    expect(frequencyNotAllowedMessage("twice_yearly")).toBe(
      "Twice-yearly prices are not enabled for your organisation",
    );
  });
});
