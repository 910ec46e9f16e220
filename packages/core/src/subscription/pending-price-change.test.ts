/**
 * A scheduled price change is "to come" only before its first day (docs/billing.md "Price changes";
 * tour: the staff card kept "Price change from 5/12/2026" after that day and never named the price).
 */
import { describe, expect, it } from "vitest";
import { startOfAucklandDay } from "../billing/calendar";
import { type PriceFacts, pendingPriceChange, priceInEffect } from "./schedule";

const sub: PriceFacts = {
  price_id: "p-old",
  offering_id: "o-1",
  offering_name: "Flexi",
  price_label: "$24.00 Weekly",
  amount: 2400,
  transition_to_price_id: "p-new",
  transition_to_offering_id: "o-1",
  transition_to_offering_name: "Flexi",
  transition_to_price_label: "$15.00 Weekly",
  transition_to_amount: 1500,
  transition_takes_effect_at: startOfAucklandDay("2026-12-05").toISOString(),
  transition_to_date: "2026-12-05",
};

describe("the price change still to come", () => {
  it("before its first day: names the new price and that day; the old price is in effect", () => {
    const now = new Date(startOfAucklandDay("2026-12-04").getTime() + 20 * 3600_000);
    expect(pendingPriceChange(sub, now)).toEqual({
      price_id: "p-new",
      label: "$15.00 Weekly",
      amount: 1500,
      takes_effect_on: "2026-12-05",
    });
    expect(priceInEffect(sub, now).amount).toBe(2400);
  });

  it("from its first day on: none to come, the new price is the one in effect", () => {
    for (const day of ["2026-12-05", "2027-03-01"]) {
      const now = startOfAucklandDay(day);
      expect(pendingPriceChange(sub, now)).toBeNull();
      expect(priceInEffect(sub, now).price_label).toBe("$15.00 Weekly");
    }
  });

  it("none scheduled: null", () => {
    expect(
      pendingPriceChange(
        { ...sub, transition_to_price_id: undefined, transition_to_amount: undefined },
        new Date("2026-11-01T00:00:00Z"),
      ),
    ).toBeNull();
  });
});
