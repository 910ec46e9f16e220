/**
 * The demo offerings' descriptions say what a membership is, never a price's terms: an offering
 * has several prices (a 3-month pay-in-full price and a 10-visit pass under "Summer Pass"), and
 * the plan list words each price's own terms under it (docs/offers.md "Screens"), so a term in the
 * description ("Three months, paid up front.") contradicts every other price of the offering.
 */
import { describe, expect, it } from "vitest";
import { useSeededApi } from "../../../../../tests/support/api";
import { seedOfferings } from "./offerings";

const api = useSeededApi();

/** A length, a number of visits, an amount or a way of paying: what a price says. */
const PRICE_TERMS =
  /\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)[\s-]+(days?|weeks?|fortnights?|months?|years?|visits?)\b|\$\s?\d|\b(weekly|fortnightly|monthly|yearly|annual(ly)?|up front|paid once|in full|PIF)\b/i;

describe("demo offerings", () => {
  it("describe the membership, never a price's terms", async () => {
    const seeded = await seedOfferings(api.seed);
    const described = Object.values(seeded.offerings).map((o) => [o.name, o.description ?? ""]);
    expect(described.length).toBeGreaterThan(0);
    for (const [name, description] of described) expect(description, name).not.toMatch(PRICE_TERMS);
  });
});
