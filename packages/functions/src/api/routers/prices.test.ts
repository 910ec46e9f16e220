import { aucklandDate, totalValue } from "@gym/core/billing/index";
import { config } from "@gym/core/config";
import { db } from "@gym/core/db/service";
import { resolveJoinLink } from "@gym/core/price/links";
import { recordPriceSubscribed } from "@gym/core/price/service";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { type SeededOfferings, seedOfferings } from "../../local/seed/offerings";

const api = useSeededApi();
let seeded: SeededOfferings;
let admin: HttpClient;
let trainer: HttpClient;
let owner: HttpClient;
let member: HttpClient;

const harbour = () => api.seed.organisations.harbour.organisation_id;
const anytime = () => seeded.offerings.anytime.offering_id;
const allFrequencies = ["weekly", "fortnightly", "monthly", "quarterly", "six_monthly", "yearly"];

async function setFrequencies(price_frequencies: string[]) {
  await db().entities.organisation.patch({ organisation_id: harbour() }).set({ price_frequencies }).go();
}

/** A fresh offering of the demo organisation, so tests do not share prices. */
async function newOffering(name: string) {
  const res = await admin.post("/api/offerings", { name, type: "24_7" });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

beforeAll(async () => {
  seeded = await seedOfferings(api.seed);
  // A card surcharge of 1.95 % and no fixed part, set the way the organisation's settings store it.
  await db()
    .entities.organisation.patch({ organisation_id: harbour() })
    .set({ card_surcharge_basis_points: 195, card_surcharge_fixed_cents: 0 })
    .go();
  [admin, trainer, owner, member] = await Promise.all([
    signIn(api.url, "admin@example.com"),
    signIn(api.url, "trainer@example.com"),
    signIn(api.url, "owner@example.org"),
    signIn(api.url, "member@example.com"),
  ]);
});

afterEach(async () => {
  await setFrequencies(allFrequencies);
});

describe("creating prices", () => {
  it("adds a price with the spec's computed fields", async () => {
    const offering = await newOffering("Priced");
    const res = await admin.post(`/api/offerings/${offering}/prices`, {
      amount: 2_450,
      billing_frequency: "weekly",
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      offering_id: offering,
      offering: { id: offering, name: "Priced" },
      amount: 2450,
      formatted_amount: "$24.50",
      billing_frequency: "weekly",
      frequency_label: "Weekly",
      label: "$24.50 Weekly",
      joining_fee: null,
      private: false,
      private_links: [],
      term_amount: null,
      term_unit: null,
      is_term_membership: false,
      formatted_term: null,
      membership_type: "Flexi",
      total_value: null,
      // The organisation's card surcharge: $24.50 × 1.95 % = 47.775¢ → 48¢.
      surcharge: 48,
      formatted_surcharge: "$0.48",
      amount_with_surcharge: 2498,
      formatted_amount_with_surcharge: "$24.98",
      subscriptions_count: 0,
      can_delete: true,
      offered: true,
      archived_at: null,
    });
    expect(res.body.data.grouping_unique_identifier).toBe(res.body.data.id);

    const listed = await admin.get(`/api/offerings/${offering}`);
    expect(listed.body.data).toMatchObject({ prices_count: 1, frequencies_formatted: "Weekly" });
  });

  it("quotes a 12-month term's total value from today's Auckland date", async () => {
    const offering = await newOffering("Committed");
    const res = await admin.post(`/api/offerings/${offering}/prices`, {
      amount: 2_000,
      billing_frequency: "weekly",
      term_amount: 12,
      term_unit: "months",
      joining_fee: 4_900,
    });
    expect(res.status).toBe(201);
    const today = aucklandDate(new Date());
    const expected = totalValue(2_000, "weekly", 12, "months", today);
    expect(res.body.data).toMatchObject({
      is_term_membership: true,
      formatted_term: "12M Term",
      membership_type: "12M Term",
      joining_fee: 4900,
      formatted_joining_fee: "$49.00",
      total_value: expected,
      total_value_quoted_from: today,
      label: "$20.00 Weekly · 12M Term",
    });
    // 52 or 53 weekly payments, depending on the start.
    expect([104_000, 106_000]).toContain(res.body.data.total_value);
  });

  it("shows the one-off frequency as PIF", async () => {
    const offering = await newOffering("Paid up");
    const res = await admin.post(`/api/offerings/${offering}/prices`, {
      amount: 29_900,
      billing_frequency: "one_off",
      term_amount: 3,
      term_unit: "months",
    });
    expect(res.body.data).toMatchObject({
      frequency_label: "PIF",
      membership_type: "PIF",
      total_value: 29_900,
      formatted_total_value: "$299.00",
    });
  });

  it("answers 422 with the spec's messages", async () => {
    const offering = anytime();
    const empty = await admin.post(`/api/offerings/${offering}/prices`, {});
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toMatchObject({
      amount: ["Value is required"],
      billing_frequency: ["Value is required"],
    });

    const noUnit = await admin.post(`/api/offerings/${offering}/prices`, {
      amount: 100,
      billing_frequency: "weekly",
      term_amount: 6,
    });
    expect(noUnit.body.errors.term_unit).toEqual(["Please select a term unit"]);
    const noAmount = await admin.post(`/api/offerings/${offering}/prices`, {
      amount: 100,
      billing_frequency: "weekly",
      term_unit: "months",
    });
    expect(noAmount.body.errors.term_amount).toEqual(["Please enter a term amount"]);
    // Both messages show even when other fields are also wrong.
    const both = await admin.post(`/api/offerings/${offering}/prices`, { term_amount: 6 });
    expect(both.body.errors).toMatchObject({
      amount: ["Value is required"],
      term_unit: ["Please select a term unit"],
    });

    const wrong = await admin.post(`/api/offerings/${offering}/prices`, {
      amount: -5,
      billing_frequency: "hourly",
      joining_fee: 1.5,
    });
    expect(wrong.body.errors).toMatchObject({
      amount: ["The amount cannot be negative"],
      billing_frequency: ["Choose a billing frequency"],
      joining_fee: ["Enter an amount in whole cents"],
    });
    const text = await admin.post(`/api/offerings/${offering}/prices`, {
      amount: "24.00",
      billing_frequency: "weekly",
    });
    expect(text.status).toBe(422);
    expect(text.body.errors.amount).toHaveLength(1);

    for (const body of [
      "{not json",
      "[]",
      "null",
      JSON.stringify({ amount: {}, term_unit: 5, private: "yes" }),
    ]) {
      const res = await admin.request("POST", `/api/offerings/${offering}/prices`, body);
      expect(res.status, body).toBeGreaterThanOrEqual(400);
      expect(res.status, body).toBeLessThan(500);
    }
  });

  it("refuses an amount or joining fee below the card minimum: $0.00 or at least $0.50 (issue 34, item 4)", async () => {
    const offering = await newOffering("Card minimum");
    const message = "Enter $0.00 (nothing is charged) or at least $0.50: a card cannot be charged less";
    for (const amount of [1, 10, 49]) {
      const res = await admin.post(`/api/offerings/${offering}/prices`, {
        amount,
        billing_frequency: "weekly",
      });
      expect(res.status, String(amount)).toBe(422);
      expect(res.body.errors).toEqual({ amount: [message] });
    }
    const fee = await admin.post(`/api/offerings/${offering}/prices`, {
      amount: 2400,
      billing_frequency: "weekly",
      joining_fee: 10,
    });
    expect(fee.status).toBe(422);
    expect(fee.body.errors).toEqual({ joining_fee: [message] });
    for (const amount of [0, 50]) {
      const res = await admin.post(`/api/offerings/${offering}/prices`, {
        amount,
        billing_frequency: "weekly",
      });
      expect(res.status, String(amount)).toBe(201);
    }
    // Editing a price nobody subscribed to: the same rule, nothing changed.
    const made = await admin.post(`/api/offerings/${offering}/prices`, {
      amount: 2400,
      billing_frequency: "weekly",
    });
    const edited = await admin.put(`/api/prices/${made.body.data.id}`, {
      amount: 10,
      billing_frequency: "weekly",
    });
    expect(edited.status).toBe(422);
    expect(edited.body.errors).toEqual({ amount: [message] });
    const read = await admin.get(`/api/offerings/${offering}/prices`);
    expect(read.body.data.find((p: { id: string }) => p.id === made.body.data.id)).toMatchObject({
      amount: 2400,
    });
  });

  it("allows only the organisation's enabled frequencies, on the server (422)", async () => {
    await setFrequencies(["weekly", "six_monthly"]);
    const offering = await newOffering("Restricted");
    const monthly = await admin.post(`/api/offerings/${offering}/prices`, {
      amount: 6_000,
      billing_frequency: "monthly",
    });
    expect(monthly.status).toBe(422);
    expect(monthly.body.errors.billing_frequency).toEqual([
      "Monthly prices are not enabled for your organisation",
    ]);
    const daily = await admin.post(`/api/offerings/${offering}/prices`, {
      amount: 300,
      billing_frequency: "daily",
    });
    expect(daily.body.errors.billing_frequency).toEqual([
      "Daily prices are not enabled for your organisation",
    ]);
    expect(
      (
        await admin.post(`/api/offerings/${offering}/prices`, {
          amount: 30_000,
          billing_frequency: "twice_yearly",
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await admin.post(`/api/offerings/${offering}/prices`, {
          amount: 30_000,
          billing_frequency: "one_off",
          term_amount: 12,
          term_unit: "months",
        })
      ).status,
    ).toBe(201);

    const options = await admin.get("/api/offering-options");
    expect(options.body.data.billing_frequencies).toEqual([
      { value: "weekly", label: "Weekly" },
      { value: "twice_yearly", label: "Twice-yearly" },
      { value: "one_off", label: "PIF" },
    ]);
  });

  it("refuses trainers (403), other organisations (404) and unknown offerings (404)", async () => {
    const body = { amount: 1_000, billing_frequency: "weekly" };
    expect((await trainer.post(`/api/offerings/${anytime()}/prices`, body)).status).toBe(403);
    expect((await owner.post(`/api/offerings/${anytime()}/prices`, body)).status).toBe(404);
    expect((await admin.post("/api/offerings/01UNKNOWN/prices", body)).status).toBe(404);
  });
});

describe("listing prices", () => {
  it("lists the organisation's offered prices, archived ones on request", async () => {
    const res = await trainer.get(`/api/organisations/${harbour()}/prices`);
    expect(res.status).toBe(200);
    const labels = res.body.data.map(
      (p: { offering: { name: string }; label: string }) => `${p.offering.name}: ${p.label}`,
    );
    expect(labels).toEqual(
      expect.arrayContaining(["Anytime Membership: $24.00 Weekly", "Summer Pass: $299.00 PIF · 3M Term"]),
    );
    // The archived offering's price is not offered.
    expect(labels).not.toContain("Student Saver 2024: $12.00 Weekly");
    const all = await trainer.get(`/api/organisations/${harbour()}/prices?include_archived=true`);
    const archived = all.body.data.find(
      (p: { offering: { name: string } }) => p.offering.name === "Student Saver 2024",
    );
    expect(archived).toMatchObject({ offered: false, label: "$12.00 Weekly" });
    expect(
      all.body.data.some((p: { offering: { name: string } }) => p.offering.name === "Strength Unlimited"),
    ).toBe(false);
  });

  it("answers 404 for another organisation's prices", async () => {
    expect((await owner.get(`/api/organisations/${harbour()}/prices`)).status).toBe(404);
    expect(
      (await admin.get(`/api/organisations/${api.seed.organisations.southern.organisation_id}/prices`))
        .status,
    ).toBe(404);
  });
});

describe("changing, archiving, restoring and deleting prices", () => {
  it("updates a price nobody subscribed to", async () => {
    const offering = await newOffering("Changeable");
    const created = await admin.post(`/api/offerings/${offering}/prices`, {
      amount: 1_000,
      billing_frequency: "weekly",
      term_amount: 6,
      term_unit: "months",
      joining_fee: 2_500,
    });
    const id = created.body.data.id;
    const res = await admin.put(`/api/prices/${id}`, {
      amount: 4_000,
      billing_frequency: "fortnightly",
      private: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      amount: 4_000,
      billing_frequency: "fortnightly",
      private: true,
      term_amount: null,
      term_unit: null,
      joining_fee: null,
    });
    expect((await admin.put(`/api/prices/${id}`, { amount: 4_000 })).body.errors.billing_frequency).toEqual([
      "Value is required",
    ]);
    expect(
      (await trainer.put(`/api/prices/${id}`, { amount: 100, billing_frequency: "weekly" })).status,
    ).toBe(403);
    expect((await owner.put(`/api/prices/${id}`, { amount: 100, billing_frequency: "weekly" })).status).toBe(
      404,
    );
  });

  it("keeps an existing frequency the organisation has since turned off", async () => {
    const offering = await newOffering("Legacy monthly");
    const created = await admin.post(`/api/offerings/${offering}/prices`, {
      amount: 6_000,
      billing_frequency: "monthly",
    });
    await setFrequencies(["weekly"]);
    const keep = await admin.put(`/api/prices/${created.body.data.id}`, {
      amount: 6_500,
      billing_frequency: "monthly",
    });
    expect(keep.status).toBe(200);
    const change = await admin.put(`/api/prices/${created.body.data.id}`, {
      amount: 6_500,
      billing_frequency: "quarterly",
    });
    expect(change.body.errors.billing_frequency).toEqual([
      "Quarterly prices are not enabled for your organisation",
    ]);
  });

  it("archives and restores a price; archived prices are not offered", async () => {
    const offering = await newOffering("Seasonal");
    const created = await admin.post(`/api/offerings/${offering}/prices`, {
      amount: 1_800,
      billing_frequency: "weekly",
    });
    const id = created.body.data.id;

    const archived = await admin.delete(`/api/prices/${id}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.body.data).toMatchObject({ offered: false, archived_at: expect.any(String) });
    const active = await admin.get(`/api/offerings/${offering}/prices`);
    expect(active.body.data).toEqual([]);
    const all = await admin.get(`/api/offerings/${offering}/prices?include_archived=true`);
    expect(all.body.data.map((p: { id: string }) => p.id)).toEqual([id]);
    const shown = await admin.get(`/api/offerings/${offering}`);
    expect(shown.body.data).toMatchObject({ prices_count: 0, frequencies_formatted: "No prices" });
    expect(shown.body.data.prices).toHaveLength(1);

    expect((await trainer.post(`/api/prices/${id}/restore`)).status).toBe(403);
    expect((await owner.post(`/api/prices/${id}/restore`)).status).toBe(404);
    const restored = await admin.post(`/api/prices/${id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({ offered: true, archived_at: null });
  });

  it("does not restore a price while its offering is archived (409)", async () => {
    const offering = await newOffering("Retired");
    const created = await admin.post(`/api/offerings/${offering}/prices`, {
      amount: 1_800,
      billing_frequency: "weekly",
    });
    await admin.delete(`/api/prices/${created.body.data.id}/archive`);
    await admin.delete(`/api/offerings/${offering}/archive`);
    const res = await admin.post(`/api/prices/${created.body.data.id}/restore`);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/offering is archived/);
  });

  it("deletes a price nobody subscribed to, with its links", async () => {
    const offering = await newOffering("Mistake");
    const created = await admin.post(`/api/offerings/${offering}/prices`, {
      amount: 999,
      billing_frequency: "weekly",
      private: true,
    });
    const id = created.body.data.id;
    const link = await admin.post(`/api/prices/${id}/private-links`, { age_bypass: false });
    const token = new URL(link.body.data.url).searchParams.get("price")!;
    expect(await resolveJoinLink(token)).not.toBeNull();
    expect((await trainer.delete(`/api/prices/${id}`)).status).toBe(403);
    expect((await owner.delete(`/api/prices/${id}`)).status).toBe(404);
    const res = await admin.delete(`/api/prices/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id, deleted: true });
    expect(await resolveJoinLink(token)).toBeNull();
    expect((await admin.delete(`/api/prices/${id}`)).status).toBe(404);
  });

  it("archives only once anyone subscribed: no delete (409), no change of terms (409)", async () => {
    const offering = await newOffering("Subscribed");
    const created = await admin.post(`/api/offerings/${offering}/prices`, {
      amount: 2_000,
      billing_frequency: "weekly",
    });
    const id = created.body.data.id;
    await recordPriceSubscribed(harbour(), id);

    const shown = await admin.get(`/api/offerings/${offering}/prices`);
    expect(shown.body.data[0]).toMatchObject({ subscriptions_count: 1, can_delete: false });

    const del = await admin.delete(`/api/prices/${id}`);
    expect(del.status).toBe(409);
    expect(del.body.message).toBe("This price has members, so it cannot be deleted. Archive it instead.");
    const change = await admin.put(`/api/prices/${id}`, { amount: 2_500, billing_frequency: "weekly" });
    expect(change.status).toBe(409);
    // Making it private changes nothing members pay.
    const privacy = await admin.put(`/api/prices/${id}`, {
      amount: 2_000,
      billing_frequency: "weekly",
      private: true,
    });
    expect(privacy.status).toBe(200);
    expect((await admin.delete(`/api/prices/${id}/archive`)).status).toBe(200);
  });
});

describe("private links", () => {
  it("creates unguessable join-site links to a price, shown to staff only", async () => {
    const staffRate = seeded.prices.staffRate.price_id;
    const first = await admin.post(`/api/prices/${staffRate}/private-links`, { age_bypass: true });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ age_bypass: true, price_id: staffRate, id: expect.any(String) });
    const url = new URL(first.body.data.url);
    expect(`${url.origin}`).toBe(new URL(config.joinUrl).origin);
    const token = url.searchParams.get("price")!;
    expect(token.length).toBeGreaterThanOrEqual(43);
    const second = await admin.post(`/api/prices/${staffRate}/private-links`);
    expect(second.status).toBe(201);
    expect(second.body.data.age_bypass).toBe(false);
    expect(second.body.data.url).not.toBe(first.body.data.url);

    expect(await resolveJoinLink(token)).toMatchObject({
      kind: "price",
      organisation_id: harbour(),
      price_id: staffRate,
      age_bypass: true,
    });
    const offering = await admin.get(`/api/offerings/${anytime()}`);
    const price = offering.body.data.prices.find((p: { id: string }) => p.id === staffRate);
    expect(price.private_links.map((l: { url: string }) => l.url)).toEqual(
      expect.arrayContaining([first.body.data.url, second.body.data.url]),
    );

    expect((await trainer.post(`/api/prices/${staffRate}/private-links`, {})).status).toBe(403);
    expect((await owner.post(`/api/prices/${staffRate}/private-links`, {})).status).toBe(404);
    expect((await admin.post(`/api/prices/${staffRate}/private-links`, { age_bypass: "yes" })).status).toBe(
      422,
    );
  });

  it("creates organisation-level age-bypass links", async () => {
    const res = await admin.post(`/api/organisations/${harbour()}/age-bypass-links`);
    expect(res.status).toBe(201);
    const token = new URL(res.body.data.url).searchParams.get("age_bypass")!;
    expect(await resolveJoinLink(token)).toMatchObject({
      kind: "age_bypass",
      organisation_id: harbour(),
      price_id: null,
    });
    expect((await trainer.post(`/api/organisations/${harbour()}/age-bypass-links`)).status).toBe(403);
    expect((await owner.post(`/api/organisations/${harbour()}/age-bypass-links`)).status).toBe(404);
  });
});

describe("pro-rata", () => {
  const weekly = () => seeded.prices.anytimeWeekly.price_id; // $24.00 weekly
  const term = () => seeded.prices.anytimeTerm.price_id; // $20.00 weekly, $49.00 joining fee

  it("breaks down the first payment", async () => {
    const res = await admin.post(`/api/prices/${weekly()}/pro-rata`, {
      start_date: "2025-06-02",
      billing_date: "2025-06-05",
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      price_id: weekly(),
      price_label: "$24.00 Weekly",
      is_pro_rata: true,
      pro_rata_days: 3,
      period_days: 7,
      period_start: "2025-05-29",
      // $24 × 3/7 = 1028.57¢ → $10.29
      pro_rata_amount: 1029,
      formatted_pro_rata_amount: "$10.29",
      joining_fee: 0,
      first_payment_date: "2025-06-02",
      first_payment_total: 1029,
      formatted_first_payment_total: "$10.29",
      first_full_payment_date: "2025-06-05",
      recurring_amount: 2400,
      latest_billing_date: "2025-06-08",
      // $10.29 × 1.95 % = 20.07¢ → 20¢ on a card.
      card_surcharge: 20,
      formatted_card_surcharge: "$0.20",
      formatted_first_payment_total_with_card_surcharge: "$10.49",
      // After a pro-rata first payment, the next is the billing date's full one.
      second_payment_date: "2025-06-05",
    });
  });

  it("says when the payment after the first falls: one period on when the first was a full one", async () => {
    const weeklyQuote = await admin.post(`/api/prices/${weekly()}/pro-rata`, {
      start_date: "2026-11-26",
      billing_date: "2026-11-26",
    });
    expect(weeklyQuote.body.data).toMatchObject({
      first_payment_date: "2026-11-26",
      first_full_payment_date: "2026-11-26",
      second_payment_date: "2026-12-03",
    });
  });

  it("adds the joining fee, pro-rata or not", async () => {
    const pro = await admin.post(`/api/prices/${term()}/pro-rata`, {
      start_date: "2026-04-03",
      billing_date: "2026-04-06",
    });
    // Quotes are admins' work (docs/access-control.md): a personal trainer is refused.
    expect(
      (
        await trainer.post(`/api/prices/${term()}/pro-rata`, {
          start_date: "2026-04-03",
          billing_date: "2026-04-06",
        })
      ).status,
    ).toBe(403);
    // $20 × 3/7 = 857.14¢ → $8.57, + $49.00 (and the DST weekend changes nothing).
    expect(pro.body.data).toMatchObject({
      pro_rata_amount: 857,
      joining_fee: 4900,
      formatted_first_payment_total: "$57.57",
    });
    const same = await admin.post(`/api/prices/${term()}/pro-rata`, {
      start_date: "2026-04-06",
      billing_date: "2026-04-06",
    });
    expect(same.body.data).toMatchObject({
      is_pro_rata: false,
      pro_rata_amount: 0,
      first_payment_total: 6900,
    });
  });

  it("answers 422 with field messages for dates that do not work", async () => {
    const missing = await admin.post(`/api/prices/${weekly()}/pro-rata`, {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({
      start_date: ["Value is required"],
      billing_date: ["Value is required"],
    });
    const invalid = await admin.post(`/api/prices/${weekly()}/pro-rata`, {
      start_date: "2025-02-30",
      billing_date: "05/06/2025",
    });
    expect(invalid.body.errors).toEqual({
      start_date: ["Enter a date as YYYY-MM-DD"],
      billing_date: ["Enter a date as YYYY-MM-DD"],
    });
    const before = await admin.post(`/api/prices/${weekly()}/pro-rata`, {
      start_date: "2025-06-05",
      billing_date: "2025-06-02",
    });
    expect(before.body.errors.billing_date).toEqual(["The billing date must be on or after the start date"]);
    const far = await admin.post(`/api/prices/${weekly()}/pro-rata`, {
      start_date: "2025-06-01",
      billing_date: "2025-06-08",
    });
    expect(far.status).toBe(422);
    expect(far.body.errors.billing_date).toEqual([
      "The billing date must be on or before 7/06/2025: less than one weekly period after the start date",
    ]);
    const pif = await admin.post(`/api/prices/${seeded.prices.summerPif.price_id}/pro-rata`, {
      start_date: "2025-06-01",
      billing_date: "2025-06-01",
    });
    expect(pif.status).toBe(422);
    expect(pif.body.errors.price).toEqual([
      "A pay-in-full (PIF) price is paid once in full, so there is no pro-rata",
    ]);
  });

  it("lets a member quote offered prices, and a private one only with its link", async () => {
    const dates = { start_date: "2025-06-02", billing_date: "2025-06-05" };
    expect((await member.post(`/api/prices/${weekly()}/pro-rata`, dates)).status).toBe(200);
    const staffRate = seeded.prices.staffRate.price_id;
    expect((await member.post(`/api/prices/${staffRate}/pro-rata`, dates)).status).toBe(404);
    expect(
      (await member.post(`/api/prices/${staffRate}/pro-rata`, { ...dates, link: "not-a-link" })).status,
    ).toBe(404);
    const linked = await member.post(`/api/prices/${staffRate}/pro-rata`, {
      ...dates,
      link: seeded.links.staffRate.token,
    });
    expect(linked.status).toBe(200);
    expect(linked.body.data.formatted_pro_rata_amount).toBe("$6.43");
    // Staff quote any price of their organisation, archived ones too; members do not.
    const archived = (
      await admin.get(`/api/organisations/${harbour()}/prices?include_archived=true`)
    ).body.data.find((p: { offering: { name: string } }) => p.offering.name === "Student Saver 2024");
    expect((await admin.post(`/api/prices/${archived.id}/pro-rata`, dates)).status).toBe(200);
    expect((await member.post(`/api/prices/${archived.id}/pro-rata`, dates)).status).toBe(404);
  });

  it("answers 404 for another organisation's price and 401 without a session", async () => {
    const dates = { start_date: "2025-06-02", billing_date: "2025-06-05" };
    expect(
      (await admin.post(`/api/prices/${seeded.prices.strengthWeekly.price_id}/pro-rata`, dates)).status,
    ).toBe(404);
    expect((await owner.post(`/api/prices/${weekly()}/pro-rata`, dates)).status).toBe(404);
    expect((await api.client().post(`/api/prices/${weekly()}/pro-rata`, dates)).status).toBe(401);
  });
});
