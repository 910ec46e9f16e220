import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";

const api = useSeededApi();
let admin: HttpClient;
let trainer: HttpClient;
let otherAdmin: HttpClient;
let harbour: string;
const path = (suffix = "") => `/api/organisations/${harbour}${suffix}`;

beforeAll(async () => {
  [admin, trainer, otherAdmin] = await Promise.all([
    signIn(api.url, "admin@example.com"),
    signIn(api.url, "trainer@example.com"),
    signIn(api.url, "owner@example.org"),
  ]);
  harbour = api.seed.organisations.harbour.organisation_id;
});

describe("organisation settings", () => {
  it("reads the settings with every default", async () => {
    const res = await admin.get(path());
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: harbour,
      name: "Harbour Fitness",
      multi_gym: true,
      offering_permissions: { enable_offerings: true, non_stop: true, limited_access: true },
      price_frequencies: ["weekly", "fortnightly", "monthly", "quarterly", "six_monthly", "yearly"],
      failed_payment_grace_period: 14,
      failed_payment_grace_period_unit: "days",
      term_membership_grace_period: 30,
      term_membership_grace_period_unit: "days",
      payment_retry_days: [1, 3, 5],
      cooling_off_days: 7,
      pause_day_credit_days: 30,
      card_surcharge_basis_points: 250,
      card_surcharge_fixed_cents: 30,
      break_fee_basis_points: 2500,
      // The demo organisation's receipt details (seed/identity.ts); the reminder at its default.
      legal_name: "Harbour Fitness Limited",
      gst_number: "49-091-850",
      payment_reminder_days: 3,
      access_control_integration: null,
    });
    // Staff may read (offering forms need the permissions); another organisation cannot.
    expect((await trainer.get(path())).status).toBe(200);
    expect((await otherAdmin.get(path())).status).toBe(404);
  });

  it("changes the failed-payment grace period: both fields required, units days/weeks/months, a year at most", async () => {
    const empty = await admin.put(path("/grace-period"), {
      failed_payment_grace_period: "",
      failed_payment_grace_period_unit: " ",
    });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({
      failed_payment_grace_period: ["Value is required"],
      failed_payment_grace_period_unit: ["Value is required"],
    });
    const tooLong = await admin.put(path("/grace-period"), {
      failed_payment_grace_period: 13,
      failed_payment_grace_period_unit: "months",
    });
    expect(tooLong.body.errors).toEqual({ failed_payment_grace_period: ["The maximum value allowed is 12"] });
    const fraction = await admin.put(path("/grace-period"), {
      failed_payment_grace_period: 1.5,
      failed_payment_grace_period_unit: "weeks",
    });
    expect(fraction.status).toBe(422);
    const ok = await admin.put(path("/grace-period"), {
      failed_payment_grace_period: "3",
      failed_payment_grace_period_unit: "weeks",
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({
      failed_payment_grace_period: 3,
      failed_payment_grace_period_unit: "weeks",
    });
  });

  it("changes the term-membership grace period", async () => {
    const missing = await admin.put(path("/term-membership-grace-period"), {
      term_membership_grace_period: 2,
    });
    expect(missing.body.errors).toEqual({ term_membership_grace_period_unit: ["Value is required"] });
    const ok = await admin.put(path("/term-membership-grace-period"), {
      term_membership_grace_period: 6,
      term_membership_grace_period_unit: "weeks",
    });
    expect(ok.body.data).toMatchObject({
      term_membership_grace_period: 6,
      term_membership_grace_period_unit: "weeks",
    });
  });

  it("changes offering permissions and price frequencies", async () => {
    const permissions = await admin.put(path("/offering-permissions"), {
      enable_offerings: true,
      non_stop: false,
      limited_access: true,
    });
    expect(permissions.body.data.offering_permissions).toEqual({
      enable_offerings: true,
      non_stop: false,
      limited_access: true,
    });
    expect((await admin.put(path("/offering-permissions"), { enable_offerings: true })).status).toBe(422);

    const frequencies = await admin.put(path("/price-frequencies"), {
      price_frequencies: ["yearly", "weekly", "weekly"],
    });
    expect(frequencies.body.data.price_frequencies).toEqual(["weekly", "yearly"]);
    expect((await admin.put(path("/price-frequencies"), { price_frequencies: [] })).body.errors).toEqual({
      price_frequencies: ["Select at least one frequency"],
    });
    expect((await admin.put(path("/price-frequencies"), { price_frequencies: ["daily"] })).status).toBe(422);
  });

  it("changes the billing settings (retry schedule, cooling-off, pause credit, surcharge, break fee)", async () => {
    const settings = {
      payment_retry_days: [2, 4, 7],
      cooling_off_days: 10,
      pause_day_credit_days: 21,
      card_surcharge_basis_points: 195,
      card_surcharge_fixed_cents: 0,
      break_fee_basis_points: 2000,
    };
    const ok = await admin.put(path("/billing-settings"), settings);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject(settings);
    const bad = await admin.put(path("/billing-settings"), {
      ...settings,
      payment_retry_days: [3, 1],
      break_fee_basis_points: 10001,
      cooling_off_days: "",
    });
    expect(bad.body.errors).toEqual({
      payment_retry_days: ["Each retry must come after the one before"],
      break_fee_basis_points: ["The maximum value allowed is 10000"],
      cooling_off_days: ["Value is required"],
    });
  });

  it("changes the communications settings: legal name, GST number checked by IRD's check digit, reminder days", async () => {
    const ok = await admin.put(path("/communications"), {
      legal_name: "Harbour Fitness Limited",
      gst_number: "49091850",
      payment_reminder_days: 5,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({
      legal_name: "Harbour Fitness Limited",
      gst_number: "49-091-850",
      payment_reminder_days: 5,
    });
    const bad = await admin.put(path("/communications"), {
      legal_name: "x",
      gst_number: "49-091-851",
      payment_reminder_days: 31,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      gst_number: ["Enter a valid GST number (the IRD number, e.g. 49-091-850)"],
      payment_reminder_days: ["The maximum value allowed is 30"],
    });
    // Blank: not registered for GST (receipts then carry no GST line); 0: no reminders.
    const cleared = await admin.put(path("/communications"), {
      legal_name: "",
      gst_number: "",
      payment_reminder_days: 0,
    });
    expect(cleared.body.data).toMatchObject({ legal_name: null, gst_number: null, payment_reminder_days: 0 });
  });

  it("renames the organisation; only its admins change settings", async () => {
    expect((await admin.put(path(), { name: "  " })).body.errors).toEqual({ name: ["Value is required"] });
    expect((await admin.put(path(), { name: "Harbour Fitness Group" })).body.data.name).toBe(
      "Harbour Fitness Group",
    );
    // Valid bodies (each section's documented example): the body passes, the caller does not.
    const doc = (await admin.get("/api/openapi.json")).body;
    for (const suffix of [
      "",
      "/grace-period",
      "/term-membership-grace-period",
      "/offering-permissions",
      "/price-frequencies",
      "/billing-settings",
      "/communications",
    ]) {
      const ref = doc.paths[`/api/organisations/{organisationId}${suffix}`].put.requestBody.content[
        "application/json"
      ].schema.$ref as string;
      const example = doc.components.schemas[ref.split("/").pop()!].example;
      expect(example, suffix).toBeDefined();
      expect((await trainer.put(path(suffix), example)).status, suffix).toBe(403);
      expect((await otherAdmin.put(path(suffix), example)).status, suffix).toBe(404);
    }
  });
});
