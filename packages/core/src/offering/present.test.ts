import { describe, expect, it } from "vitest";
import { noSurcharge } from "../billing/index";
import { presentPrice } from "../price/present";
import { formatFrequencies, formatGymAccess, presentOffering } from "./present";

const gyms = [
  { gym_id: "g1", name: "Ponsonby" },
  { gym_id: "g2", name: "Newmarket" },
];

describe("an offering as shown", () => {
  it("lists frequencies once each in the spec's display order, PIF last", () => {
    expect(formatFrequencies(["one_off", "fortnightly", "weekly", "weekly", "yearly", "bi_monthly"])).toBe(
      "Weekly, Fortnightly, Bi-monthly, Yearly, PIF",
    );
    expect(formatFrequencies([])).toBe("No prices");
  });

  it("names its gyms", () => {
    expect(formatGymAccess({ all_gyms_access: true, gym_ids: [] }, gyms)).toBe("All gyms");
    expect(formatGymAccess({ all_gyms_access: false, gym_ids: ["g2", "g1"] }, gyms)).toBe(
      "Ponsonby, Newmarket",
    );
    expect(formatGymAccess({ all_gyms_access: false, gym_ids: [] }, gyms)).toBe("No gyms");
  });

  it("counts prices not archived and sums subscriptions", () => {
    const offering = {
      organisation_id: "o",
      offering_id: "off",
      name: "Off-Peak",
      type: "limited_access" as const,
      all_gyms_access: false,
      gym_ids: ["g1"],
      mandated: false,
      hours_mandated: true,
      prices_mandated: false,
      hours: [
        { id: "h2", day: 2, open_at: "09:00", close_at: "15:00" },
        { id: "h1", day: 1, open_at: "09:00", close_at: "15:00" },
      ],
      created_at: "2025-01-01T00:00:00.000Z",
      updated_at: "2025-01-01T00:00:00.000Z",
    };
    const price = (id: string, frequency: "weekly" | "one_off", extra: object = {}) =>
      presentPrice(
        {
          organisation_id: "o",
          price_id: id,
          offering_id: "off",
          amount: 1500,
          billing_frequency: frequency,
          private: false,
          grouping_unique_identifier: id,
          subscriptions_count: 0,
          private_links: [],
          created_at: "2025-01-01T00:00:00.000Z",
          updated_at: "2025-01-01T00:00:00.000Z",
          ...extra,
        },
        { offering, surcharge: noSurcharge, today: "2025-01-01", withLinks: true },
      );
    const view = presentOffering(offering, {
      prices: [
        price("a", "weekly", { subscriptions_count: 2 }),
        price("b", "one_off", { archived_at: "2025-02-01" }),
      ],
      gyms,
    });
    expect(view).toMatchObject({
      type_label: "Limited Hours",
      title_formatted: "Off-Peak (Limited Hours)",
      subtitle_formatted: "Ponsonby · 1 price",
      frequencies_formatted: "Weekly",
      prices_count: 1,
      subscriptions_count: 2,
      can_delete: false,
      gyms: [{ id: "g1", name: "Ponsonby" }],
      hours_formatted: "Mon–Tue 9:00 am – 3:00 pm",
    });
    expect(view.hours.map((h) => h.day_name)).toEqual(["Monday", "Tuesday"]);
  });
});
