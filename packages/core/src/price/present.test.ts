import { describe, expect, it } from "vitest";
import type { Organisation } from "../organisation/service";
import { type PriceRecord, presentPrice, priceLabel, priceTotalValue, privatePriceUrl } from "./present";
import { cardSurchargeSettings } from "./surcharge";

const base: PriceRecord = {
  organisation_id: "org",
  price_id: "price",
  offering_id: "offering",
  amount: 2_000,
  billing_frequency: "weekly",
  private: false,
  grouping_unique_identifier: "price",
  subscriptions_count: 0,
  private_links: [
    { id: "link", token: "secret-token", age_bypass: false, created_at: "2025-01-01T00:00:00.000Z" },
  ],
  created_at: "2025-01-01T00:00:00.000Z",
  updated_at: "2025-01-01T00:00:00.000Z",
};
const context = {
  offering: { offering_id: "offering", name: "Anytime" },
  surcharge: { percentBasisPoints: 250, fixedCents: 30 },
  today: "2025-01-01",
  withLinks: true,
};

describe("a price as shown", () => {
  it("labels frequency, term and PIF", () => {
    expect(priceLabel(base)).toBe("$20.00 Weekly");
    expect(priceLabel({ ...base, term_amount: 12, term_unit: "months" })).toBe("$20.00 Weekly · 12M Term");
    expect(priceLabel({ ...base, amount: 29_900, billing_frequency: "one_off" })).toBe("$299.00 PIF");
    // A visit pass is paid once too, but it is not a membership paid in full (docs/offers.md).
    expect(priceLabel({ ...base, amount: 12_000, billing_frequency: "one_off", visits: 10 })).toBe(
      "$120.00 Visit pass · 10 visits",
    );
    expect(priceLabel({ ...base, amount: 1_500, billing_frequency: "one_off", visits: 1 })).toBe(
      "$15.00 Visit pass · 1 visit",
    );
  });

  it("quotes total value: a term from the given date, PIF its amount, Flexi none", () => {
    // docs/billing.md terms table: weekly over 12 months from 2025-01-01 is 53 payments.
    expect(priceTotalValue({ ...base, term_amount: 12, term_unit: "months" }, "2025-01-01")).toBe(106_000);
    expect(priceTotalValue({ ...base, term_amount: 6, term_unit: "months" }, "2025-01-01")).toBe(52_000);
    expect(priceTotalValue({ ...base, term_amount: 6, term_unit: "months" }, "2025-07-01")).toBe(54_000);
    expect(priceTotalValue({ ...base, billing_frequency: "one_off", amount: 29_900 }, "2025-01-01")).toBe(
      29_900,
    );
    expect(priceTotalValue(base, "2025-01-01")).toBeNull();
  });

  it("carries the card surcharge and the computed fields", () => {
    const view = presentPrice({ ...base, term_amount: 12, term_unit: "months", joining_fee: 4_900 }, context);
    expect(view).toMatchObject({
      formatted_amount: "$20.00",
      frequency_label: "Weekly",
      is_term_membership: true,
      formatted_term: "12M Term",
      membership_type: "12M Term",
      total_value: 106_000,
      formatted_total_value: "$1,060.00",
      // 2.5 % of $20.00 = 50¢, + 30¢.
      surcharge: 80,
      formatted_surcharge: "$0.80",
      formatted_amount_with_surcharge: "$20.80",
      formatted_joining_fee: "$49.00",
      can_delete: true,
      offered: true,
    });
    expect(view.private_links).toEqual([
      {
        id: "link",
        url: privatePriceUrl("secret-token"),
        age_bypass: false,
        created_at: "2025-01-01T00:00:00.000Z",
      },
    ]);
  });

  it("hides private links from members and knows when it is offered or deletable", () => {
    expect(presentPrice(base, { ...context, withLinks: false }).private_links).toEqual([]);
    expect(presentPrice({ ...base, archived_at: "2025-02-01T00:00:00.000Z" }, context).offered).toBe(false);
    expect(
      presentPrice(base, { ...context, offering: { ...context.offering, archived_at: "x" } }).offered,
    ).toBe(false);
    expect(presentPrice({ ...base, subscriptions_count: 3 }, context).can_delete).toBe(false);
  });
});

describe("card surcharge settings", () => {
  const organisation = (fields: object) =>
    ({ organisation_id: "o", name: "Gym", ...fields }) as unknown as Organisation;

  it("uses the organisation's setting, a gym's own override, or the setting's defaults", () => {
    const org = organisation({ card_surcharge_basis_points: 195, card_surcharge_fixed_cents: 0 });
    expect(cardSurchargeSettings(org)).toEqual({ percentBasisPoints: 195, fixedCents: 0 });
    expect(
      cardSurchargeSettings(org, { card_surcharge_basis_points: 300, card_surcharge_fixed_cents: null }),
    ).toEqual({
      percentBasisPoints: 300,
      fixedCents: 0,
    });
    // A record from before the setting existed reads the defaults (docs/billing.md "Settings").
    expect(cardSurchargeSettings(organisation({}))).toEqual({ percentBasisPoints: 250, fixedCents: 30 });
  });
});
