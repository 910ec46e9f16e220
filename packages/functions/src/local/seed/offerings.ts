import { newToken } from "@gym/core/auth/tokens";
import { type OfferingInput, offeringInput } from "@gym/core/contract/offering";
import { type PriceInput, priceInput } from "@gym/core/contract/price";
import { db } from "@gym/core/db/service";
import { newId } from "@gym/core/ids";
import { insertOffering } from "@gym/core/offering/service";
import { insertPrice } from "@gym/core/price/service";
import type { SeededIdentity } from "./identity";

const offering = (input: Partial<OfferingInput> & Pick<OfferingInput, "name" | "type">) =>
  offeringInput.parse(input);
const price = (input: Partial<PriceInput> & Pick<PriceInput, "amount" | "billing_frequency">) =>
  priceInput.parse(input);

const weekdays = (open_at: string, close_at: string) =>
  [1, 2, 3, 4, 5].map((day) => ({ day, open_at, close_at }));

/**
 * Offerings and prices. Harbour Fitness (the demo admin's organisation) gets a 24/7 plan with
 * weekly and fortnightly prices, a 12-month term price with a joining fee and a private staff
 * price with a link; a Limited Hours plan at Ponsonby with its hours; a pay-in-full pass; and an
 * archived offering. Southern Strength gets one plan, so another organisation's ids exist.
 * A description says what the membership is, never a price's terms: each price words its own
 * under it on the plan list, and an offering may have several (offerings.test.ts).
 */
export async function seedOfferings(identity: SeededIdentity) {
  const harbour = identity.organisations.harbour.organisation_id;

  const anytime = await insertOffering(
    harbour,
    offering({
      name: "Anytime Membership",
      description: "Train whenever suits you, at every Harbour Fitness gym, with your access card.",
      type: "24_7",
      all_gyms_access: true,
      mandated: true,
    }),
  );
  const anytimeWeekly = await insertPrice(
    harbour,
    anytime.offering_id,
    price({ amount: 2_400, billing_frequency: "weekly" }),
  );
  const anytimeFortnightly = await insertPrice(
    harbour,
    anytime.offering_id,
    price({ amount: 4_600, billing_frequency: "fortnightly" }),
  );
  const anytimeTerm = await insertPrice(
    harbour,
    anytime.offering_id,
    price({
      amount: 2_000,
      billing_frequency: "weekly",
      term_amount: 12,
      term_unit: "months",
      joining_fee: 4_900,
    }),
  );
  const staffRate = await insertPrice(
    harbour,
    anytime.offering_id,
    price({ amount: 1_500, billing_frequency: "weekly", private: true }),
  );
  const link = { id: newId(), token: newToken(), age_bypass: false, created_at: new Date().toISOString() };
  await db()
    .entities.joinLink.create({
      token: link.token,
      link_id: link.id,
      kind: "price",
      organisation_id: harbour,
      offering_id: anytime.offering_id,
      price_id: staffRate.price_id,
      age_bypass: false,
      created_by: identity.people.admin.user_id,
      created_at: link.created_at,
    })
    .go();
  await db()
    .entities.price.patch({ organisation_id: harbour, price_id: staffRate.price_id })
    .append({ private_links: [link] })
    .go();

  const offPeak = await insertOffering(
    harbour,
    offering({
      name: "Off-Peak",
      description: "Quieter hours at Ponsonby: weekday daytimes and weekend mornings.",
      type: "limited_access",
      all_gyms_access: false,
      gyms: [identity.gyms.ponsonby.gym_id],
      hours_mandated: true,
      hours: [
        ...weekdays("09:00", "16:00"),
        { day: 6, open_at: "08:00", close_at: "13:00" },
        { day: 7, open_at: "08:00", close_at: "13:00" },
      ],
    }),
  );
  const offPeakWeekly = await insertPrice(
    harbour,
    offPeak.offering_id,
    price({ amount: 1_500, billing_frequency: "weekly" }),
  );
  await insertPrice(harbour, offPeak.offering_id, price({ amount: 6_000, billing_frequency: "monthly" }));

  const summer = await insertOffering(
    harbour,
    offering({
      name: "Summer Pass",
      description: "Summer training at every Harbour Fitness gym.",
      type: "24_7",
    }),
  );
  const summerPif = await insertPrice(
    harbour,
    summer.offering_id,
    // Pay in full covers the price's term: three months from the start (docs/billing.md "Pay in full").
    price({ amount: 29_900, billing_frequency: "one_off", term_amount: 3, term_unit: "months" }),
  );

  const student = await insertOffering(
    harbour,
    offering({
      name: "Student Saver 2024",
      description: "Last year's student plan, no longer offered.",
      type: "limited_access",
      hours: weekdays("10:00", "15:00"),
    }),
  );
  await insertPrice(harbour, student.offering_id, price({ amount: 1_200, billing_frequency: "weekly" }));
  await db()
    .entities.offering.patch({ organisation_id: harbour, offering_id: student.offering_id })
    .set({ archived_at: new Date().toISOString() })
    .go();

  const southern = identity.organisations.southern.organisation_id;
  const strength = await insertOffering(
    southern,
    offering({ name: "Strength Unlimited", type: "24_7", description: "Dunedin, any time." }),
  );
  const strengthWeekly = await insertPrice(
    southern,
    strength.offering_id,
    price({ amount: 2_200, billing_frequency: "weekly" }),
  );

  return {
    offerings: { anytime, offPeak, summer, student, strength },
    prices: {
      anytimeWeekly,
      anytimeFortnightly,
      anytimeTerm,
      staffRate,
      offPeakWeekly,
      summerPif,
      strengthWeekly,
    },
    links: { staffRate: link },
  };
}

export type SeededOfferings = Awaited<ReturnType<typeof seedOfferings>>;
