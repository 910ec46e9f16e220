import { parse as parseCsv } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { addMember } from "../../../../../tests/support/payments";

/**
 * docs/accounting.md: the account mapping, the Xero journals of settled payments (parsed with a CSV
 * parser: Xero's columns, dates, each journal balanced to the cent, each day's money equal to the
 * payments list's), exporting twice, and the GST summary equal to the tax invoices.
 */
const api = useSeededApi();
let admin: HttpClient;
let manager: HttpClient;
let trainer: HttpClient;
let outsider: HttpClient;
let organisationId: string;
let days: string[];
const paymentIds: string[] = [];

type Record_ = Record<string, string>;
const cents = (amount: string) => {
  expect(amount).toMatch(/^-?\d+\.\d{2}$/);
  const [whole, part] = amount.replace("-", "").split(".");
  return (amount.startsWith("-") ? -1 : 1) * (Number(whole) * 100 + Number(part));
};
const nz = (date: string) => {
  const [y, m, d] = date.split("-");
  return `${Number(d)}/${m}/${y}`;
};
const CLEARING = new Set(["621", "622", "623", "624"]);

beforeAll(async () => {
  const { db } = await import("@gym/core/db/service");
  const { businessToday } = await import("@gym/core/clock");
  const { addDays, startOfAucklandDay } = await import("@gym/core/billing/calendar");
  const { deterministicUlid } = await import("@gym/core/payment/ids");
  const { monthKeys } = await import("@gym/core/payment/store");
  const { notePaymentMonths } = await import("@gym/core/payment/months");
  organisationId = api.seed.organisations.harbour.organisation_id;
  const today = await businessToday();
  days = [addDays(today, -4), addDays(today, -3), addDays(today, -2)];
  const gyms = [api.seed.gyms.ponsonby, api.seed.gyms.newmarket];
  let n = 0;
  // Each day at each gym: a card payment with surcharge, a bank payment, cash at the desk making
  // credit, a card payment partly paid from credit, and a failed card payment (posts nothing).
  for (const day of days) {
    for (const gym of gyms) {
      const at = new Date(startOfAucklandDay(day).getTime() + 10 * 3_600_000).toISOString();
      const base = {
        organisation_id: organisationId,
        user_id: api.seed.people.member.user_id,
        gym_id: gym.gym_id,
        gym_name: gym.name,
        member_name: '=HYPERLINK("http://x","y")',
        member_email: "member@example.com",
        due_on: day,
        settled_at: at,
        charged_at: at,
      };
      const rows = [
        { type: "stripe_card", status: "sent", amount: 2_400 + n, surcharge: 90 },
        { type: "bank_account", status: "sent", amount: 2_399 },
        {
          type: "pif",
          status: "sent",
          amount: 10_001,
          meta: { kind: "manual", debt_paid: 6_000, credit: 4_001 },
          pif_payment: { id: `pif${n}`, payment_method: "cash" },
        },
        {
          type: "stripe_card",
          status: "sent",
          amount: 1_401,
          surcharge: 65,
          credit_used: 999,
          joining_fee: 500,
        },
        { type: "stripe_card", status: "failed", amount: 2_400, surcharge: 90 },
      ] as const;
      for (const row of rows) {
        const payment_id = deterministicUlid(startOfAucklandDay(day), `accounting-${n++}`);
        // Written as newPayment writes them: in the list index, their month named.
        await notePaymentMonths([base]);
        await db()
          .entities.payment.create({
            ...base,
            ...row,
            payment_id,
            ...monthKeys({ ...base, payment_id }),
          } as never)
          .go();
        if (row.status === "sent") paymentIds.push(payment_id);
      }
    }
  }
  [admin, manager, trainer, outsider] = await Promise.all([
    signIn(api.url, "admin@example.com"),
    signIn(api.url, "manager@example.com"),
    signIn(api.url, "trainer@example.com"),
    signIn(api.url, "owner@example.org"),
  ]);
});

async function exportFile(body: Record<string, unknown>) {
  const { call, file } = await admin.exportCsv("/api/accounting/journals/export", body);
  expect(call.status, JSON.stringify(call.body)).toBe(303);
  expect(file?.status).toBe(200);
  return file!;
}

describe("the account mapping", () => {
  it("answers the defaults of Xero's standard NZ chart until saved", async () => {
    const res = await admin.get(`/api/organisations/${organisationId}/accounting`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      is_default: true,
      income_account: "200",
      income_tax_rate: "15% GST on Income",
      fees_account: "404",
      bank_account: "090",
    });
  });

  it("refuses bad codes with field messages, and others' gyms", async () => {
    const current = (await admin.get(`/api/organisations/${organisationId}/accounting`)).body.data;
    const res = await admin.put(`/api/organisations/${organisationId}/accounting`, {
      ...current,
      income_account: "",
      surcharge_account: "=1+1",
      income_tax_rate: "  ",
      gyms: [{ gym_id: api.seed.gyms.dunedin.gym_id, tracking_option: "X" }],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors, JSON.stringify(res.body)).toMatchObject({
      income_account: ["Value is required"],
      surcharge_account: ["Enter the account's code as your chart of accounts shows it (e.g. 200)"],
      income_tax_rate: ["Value is required"],
    });
    const gyms = await admin.put(`/api/organisations/${organisationId}/accounting`, {
      ...current,
      gyms: [{ gym_id: "gym_nowhere", tracking_option: "X" }],
    });
    expect(gyms.status).toBe(422);
    expect(gyms.body.errors).toEqual({ "gyms.0.gym_id": ["Choose one of your gyms"] });
  });

  it("is for organisation admins only; another organisation's is 404", async () => {
    expect((await manager.get(`/api/organisations/${organisationId}/accounting`)).status).toBe(403);
    expect((await trainer.get(`/api/organisations/${organisationId}/accounting`)).status).toBe(403);
    expect((await outsider.get(`/api/organisations/${organisationId}/accounting`)).status).toBe(404);
  });
});

describe("POST /api/accounting/journals/export", () => {
  let first: string;

  it("answers 303 to Xero's template: balanced journals, each day's money as the payments list's", async () => {
    const file = await exportFile({ from: days[0], to: days[2] });
    expect(file.headers.get("content-disposition")).toContain(`xero-journals-${days[0]}-to-${days[2]}.csv`);
    first = file.text;
    expect(first.split("\n")[0]).toBe(
      "Narration,Date,Description,AccountCode,TaxRate,Amount,TrackingName1,TrackingOption1",
    );
    const records = parseCsv(first, { columns: true }) as Record_[];
    // 3 days × 2 gyms × (card 6 lines + bank 2 + desk 3).
    expect(records).toHaveLength(66);
    const journals = new Map<string, number>();
    for (const r of records) {
      expect(r.Date).toMatch(/^\d{1,2}\/\d{2}\/\d{4}$/);
      journals.set(
        `${r.Narration}|${r.Date}`,
        (journals.get(`${r.Narration}|${r.Date}`) ?? 0) + cents(r.Amount),
      );
    }
    expect(journals.size).toBe(18);
    for (const sum of journals.values()) expect(sum).toBe(0);
    for (const day of days) {
      const list = await admin.get(`/api/payments?status=sent&from=${day}&to=${day}&per_page=100`);
      const settled = (list.body.data as { total: number }[]).reduce((s, p) => s + p.total, 0);
      const collected = records
        .filter((r) => r.Date === nz(day) && CLEARING.has(r.AccountCode))
        .reduce((s, r) => s + cents(r.Amount), 0);
      expect(collected).toBe(settled);
    }
  });

  it("says which days were exported, and exporting again gives the same file even after the mapping changed", async () => {
    const status = await admin.get(`/api/accounting/journals?from=${days[0]}&to=${days[2]}`);
    expect(status.status).toBe(200);
    expect(status.body.data.exported).toHaveLength(6);
    expect(status.body.data.days).toBe(3);
    const current = (await admin.get(`/api/organisations/${organisationId}/accounting`)).body.data;
    const saved = await admin.put(`/api/organisations/${organisationId}/accounting`, {
      ...current,
      income_account: "201",
      gyms: [{ gym_id: api.seed.gyms.ponsonby.gym_id, tracking_option: "Ponsonby" }],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.is_default).toBe(false);
    expect((await exportFile({ from: days[0], to: days[2] })).text).toBe(first);
    // One gym's part of the same days: the same lines.
    const ponsonby = parseCsv(
      (await exportFile({ from: days[0], to: days[2], gym_id: api.seed.gyms.ponsonby.gym_id })).text,
      {
        columns: true,
      },
    ) as Record_[];
    expect(ponsonby).toHaveLength(33);
    expect(ponsonby.every((r) => r.TrackingOption1 === "Harbour Fitness Ponsonby")).toBe(true);
  });

  it("two exports of the same new days at once keep each (day, gym) once and give the same file", async () => {
    // The days are kept up to 100 in one transaction; the export that loses the race keeps them day
    // by day, each then the one the winner kept.
    const { addDays } = await import("@gym/core/billing/calendar");
    const from = addDays(days[0], -7);
    const to = addDays(days[0], -1);
    const [one, other] = await Promise.all([exportFile({ from, to }), exportFile({ from, to })]);
    expect(other.text).toBe(one.text);
    const status = await admin.get(`/api/accounting/journals?from=${from}&to=${to}`);
    expect(status.body.data.exported).toHaveLength(14);
  });

  it("refuses days not over, bad dates, other organisations' gyms, and everyone but organisation admins", async () => {
    const today = (await admin.get(`/api/accounting/journals?from=${days[0]}&to=${days[2]}`)).body.data;
    expect(today.days).toBe(3);
    const { businessToday } = await import("@gym/core/clock");
    const now = await businessToday();
    const notOver = await admin.post("/api/accounting/journals/export", { from: days[0], to: now });
    expect(notOver.status).toBe(422);
    expect(notOver.body.errors).toEqual({
      to: ["Journals can be exported for days that are over: up to yesterday"],
    });
    const bad = await admin.post("/api/accounting/journals/export", { from: "2026-02-30", to: days[0] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.from).toEqual(["Enter a date as YYYY-MM-DD"]);
    const backwards = await admin.post("/api/accounting/journals/export", { from: days[2], to: days[0] });
    expect(backwards.body.errors).toEqual({ to: ["The end date must be on or after the start date"] });
    const foreign = await admin.post("/api/accounting/journals/export", {
      from: days[0],
      to: days[2],
      gym_id: api.seed.gyms.dunedin.gym_id,
    });
    expect(foreign.status).toBe(404);
    expect(
      (await manager.post("/api/accounting/journals/export", { from: days[0], to: days[2] })).status,
    ).toBe(403);
    expect(
      (await trainer.post("/api/accounting/journals/export", { from: days[0], to: days[2] })).status,
    ).toBe(403);
  });
});

describe("GET /api/accounting/gst-summary", () => {
  it("equals the sum of the tax invoices issued in the period, on screen and as CSV", async () => {
    const gst = await admin.put(`/api/organisations/${organisationId}/communications`, {
      legal_name: "Harbour Fitness Limited",
      gst_number: "49-091-850",
      payment_reminder_days: 3,
    });
    expect(gst.status).toBe(200);
    let invoices = 0;
    let totals = 0;
    for (const id of paymentIds) {
      const receipt = await admin.get(`/api/payments/${id}/receipt`);
      expect(receipt.status).toBe(200);
      expect(receipt.body.data.title).toBe("Tax invoice");
      invoices += receipt.body.data.gst_included;
      totals += receipt.body.data.total;
    }
    const res = await admin.get(`/api/accounting/gst-summary?from=${days[0]}&to=${days[2]}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      gst_registered: true,
      total_sales: totals,
      gst_collected: invoices,
      zero_rated: 0,
      invoices: paymentIds.length,
    });
    const csv = await admin.get(`/api/accounting/gst-summary?from=${days[0]}&to=${days[2]}&format=csv`);
    expect(csv.status, JSON.stringify(csv.body)).toBe(200);
    const rows = parseCsv(String(csv.body).replace(/^\uFEFF/, "")) as string[][];
    expect(rows[2]).toEqual(["GST collected (NZD)", (invoices / 100).toFixed(2)]);
    expect((await manager.get(`/api/accounting/gst-summary?from=${days[0]}&to=${days[2]}`)).status).toBe(403);
  });
});

describe("a payment's day is the business day (issue 37: desk payments missed under a moved clock)", () => {
  it("cash taken at the desk while the business clock is moved falls in that business day's journal", async () => {
    const clock = await import("@gym/core/clock");
    const { addDays } = await import("@gym/core/billing/calendar");
    const { seedOfferings } = await import("../../local/seed/offerings");
    const { createSubscription } = await import("@gym/core/subscription/service");
    const { prices } = await seedOfferings(api.seed);
    const gymId = api.seed.gyms.ponsonby.gym_id;
    const { user } = await addMember(api.seed, {
      name: "Desk Clock",
      email: "desk-clock@example.com",
      gymId,
    });
    const day = addDays(await clock.businessToday(), 40);
    try {
      await clock.setBusinessClock(new Date(`${day}T09:00:00+12:00`));
      const { subscription } = await createSubscription({
        organisation_id: organisationId,
        user_id: user.user_id,
        gym_id: gymId,
        price_id: Object.values(prices)[0].price_id,
        start_date: day,
      });
      const paid = await admin.post(`/api/subscriptions/${subscription.subscription_id}/manual-payment`, {
        amount: 12_345,
        payment_method: "cash",
      });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      await clock.setBusinessClock(new Date(`${addDays(day, 1)}T09:00:00+12:00`));
      const records = parseCsv((await exportFile({ from: day, to: day, gym_id: gymId })).text, {
        columns: true,
      }) as Record_[];
      const desk = records.filter((r) => r.Narration.includes("at the desk") && r.AccountCode === "623");
      expect(desk.map((r) => cents(r.Amount))).toEqual([12_345]);
    } finally {
      await clock.setBusinessClock(null);
    }
  });
});
