import { parse as parseCsv } from "csv-parse/sync";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { gstIncluded } from "../billing/gst";
import { XERO_LINES_PER_FILE, xeroJournalColumns } from "../contract/accounting";
import { dayJournals, type Journal, type SettledPayment } from "./journal";
import { defaultMapping } from "./mapping";
import { journalFile, journalsCsv } from "./xero";

const ponsonby = { gym_id: "gym_ponsonby", name: "Harbour Fitness Ponsonby" };
const INCOME = "15% GST on Income";

const paid = (
  p: Partial<SettledPayment> & Pick<SettledPayment, "payment_id" | "type" | "amount">,
): SettledPayment => ({
  gym_id: ponsonby.gym_id,
  status: "sent",
  surcharge: 0,
  joining_fee: 0,
  credit_used: 0,
  ...p,
});

/**
 * docs/accounting.md "A worked day": Tuesday 3 November 2026 at Ponsonby.
 * - a weekly card payment of $24.00 with its $0.90 surcharge (2.5 % + 30c);
 * - a weekly bank account payment of $24.00 through Akahu;
 * - $100.00 cash at the desk: $60.00 pays the balance owing, $40.00 is credit ahead;
 * - a weekly $24.00 card payment of which $10.00 was paid from credit: $14.00 charged, surcharge $0.65;
 * - a failed card payment, which posts nothing.
 */
const workedDay: SettledPayment[] = [
  paid({ payment_id: "p1", type: "stripe_card", amount: 2_400, surcharge: 90 }),
  paid({ payment_id: "p2", type: "bank_account", amount: 2_400 }),
  paid({
    payment_id: "p3",
    type: "pif",
    amount: 10_000,
    meta: { kind: "manual", debt_paid: 6_000, credit: 4_000 },
    pif_payment: { payment_method: "cash" },
  }),
  paid({ payment_id: "p4", type: "stripe_card", amount: 1_400, surcharge: 65, credit_used: 1_000 }),
  paid({ payment_id: "p5", type: "stripe_card", amount: 2_400, surcharge: 90, status: "failed" }),
];

const rows = (journal: Journal) =>
  journal.lines.map((l) => [l.description, l.account, l.tax_rate, (l.amount / 100).toFixed(2)]);

/** What Xero takes as the GST of a GST-inclusive line: 3/23 of it, rounded half up (as our tax invoices). */
const lineGst = (journal: Journal) =>
  journal.lines.reduce(
    (sum, l) => (l.tax_rate === INCOME ? sum - Math.sign(l.amount) * gstIncluded(Math.abs(l.amount)) : sum),
    0,
  );

describe("the worked day (docs/accounting.md)", () => {
  const journals = dayJournals({
    date: "2026-11-03",
    gym: ponsonby,
    payments: workedDay,
    mapping: defaultMapping,
  });

  it("posts one balanced journal per way of paying, the card surcharge and credit apart, nothing for the failure", () => {
    expect(journals.map((j) => j.narration)).toEqual([
      "Harbour Fitness Ponsonby: card payments (Stripe) 3/11/2026",
      "Harbour Fitness Ponsonby: bank account payments (Akahu) 3/11/2026",
      "Harbour Fitness Ponsonby: cash and EFTPOS at the desk 3/11/2026",
    ]);
    expect(rows(journals[0])).toEqual([
      ["Collected: card payments (Stripe)", "621", "No GST", "39.55"],
      ["Member credit used", "835", INCOME, "10.00"],
      ["Memberships", "200", INCOME, "-38.00"],
      ["Card surcharges", "260", INCOME, "-1.55"],
      ["Memberships paid from credit", "200", INCOME, "-10.00"],
    ]);
    expect(rows(journals[1])).toEqual([
      ["Collected: bank account payments (Akahu)", "622", "No GST", "24.00"],
      ["Memberships", "200", INCOME, "-24.00"],
    ]);
    expect(rows(journals[2])).toEqual([
      ["Collected: cash and EFTPOS at the desk", "623", "No GST", "100.00"],
      ["Balances owing paid at the desk", "200", INCOME, "-60.00"],
      ["Member credit taken", "835", INCOME, "-40.00"],
    ]);
    for (const journal of journals) {
      expect(journal.lines.reduce((s, l) => s + l.amount, 0)).toBe(0);
      expect(journal).toMatchObject({ tracking_name: "Gym", tracking_option: "Harbour Fitness Ponsonby" });
    }
  });

  it("carries the GST of the tax invoices: each line 3/23 of itself, the day's sum as the invoices'", () => {
    const invoices = workedDay
      .filter((p) => p.status === "sent")
      .reduce((s, p) => s + gstIncluded(p.amount + p.surcharge), 0);
    // 325 + 313 + 1,304 + 191 = 2,133 cents on the four tax invoices.
    expect(invoices).toBe(2_133);
    // Lines add up the same money, so Xero's GST differs from the invoices' by rounding only: at
    // most half a cent a line.
    const journalsGst = journals.reduce((s, j) => s + lineGst(j), 0);
    expect(Math.abs(journalsGst - invoices)).toBeLessThanOrEqual(
      journals.reduce((s, j) => s + j.lines.length, 0) / 2,
    );
    // Here Xero's lines say $21.34: the desk's $100.00 is two lines ($60.00 → $7.83, $40.00 → $5.22)
    // where its one invoice said $13.04. The GST summary gives the invoices' $21.33.
    expect(journalsGst).toBe(2_134);
  });

  it("uses an offering's own account and the gym's tracking option when mapped", () => {
    const [card] = dayJournals({
      date: "2026-11-03",
      gym: ponsonby,
      payments: [
        paid({ payment_id: "p1", type: "stripe_card", amount: 2_400, surcharge: 90, subscription_id: "s1" }),
      ],
      mapping: {
        ...defaultMapping,
        offerings: [{ offering_id: "off_kids", account: "210", tax_rate: INCOME }],
        gyms: [{ gym_id: ponsonby.gym_id, tracking_option: "Ponsonby" }],
      },
      offeringOf: (id) => (id === "s1" ? "off_kids" : undefined),
    });
    expect(card.lines.find((l) => l.description === "Memberships")?.account).toBe("210");
    expect(card.tracking_option).toBe("Ponsonby");
  });
});

describe("the Xero file", () => {
  const parse = (text: string) =>
    parseCsv(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  const cents = (amount: string) => {
    expect(amount).toMatch(/^-?\d+\.\d{2}$/);
    const [whole, part] = amount.replace("-", "").split(".");
    return (amount.startsWith("-") ? -1 : 1) * (Number(whole) * 100 + Number(part));
  };
  const balances = (records: Record<string, string>[]) => {
    const sums = new Map<string, number>();
    for (const r of records)
      sums.set(`${r.Narration}|${r.Date}`, (sums.get(`${r.Narration}|${r.Date}`) ?? 0) + cents(r.Amount));
    return sums;
  };

  it("is Xero's manual journal template: its columns, d/MM/yyyy dates, positive debit and negative credit, each journal balanced", async () => {
    const journals = dayJournals({
      date: "2026-11-03",
      gym: ponsonby,
      payments: workedDay,
      mapping: defaultMapping,
    });
    const text = await journalsCsv(journals);
    expect(text.split("\n")[0]).toBe(xeroJournalColumns.join(","));
    const records = parse(text);
    expect(records).toHaveLength(10);
    for (const r of records) {
      expect(r.Date).toBe("3/11/2026");
      expect(r.AccountCode).toMatch(/^\d{3}$/);
      expect(r.TaxRate).toMatch(/^(No GST|15% GST on Income)$/);
      expect(r.TrackingName1).toBe("Gym");
    }
    expect([...balances(records).values()]).toEqual([0, 0, 0]);
  });

  it("keeps a hostile gym name text (no formula) and the journal still groups and balances", async () => {
    const gym = { gym_id: ponsonby.gym_id, name: '=HYPERLINK("http://x","y")' };
    const journals = dayJournals({ date: "2026-11-03", gym, payments: workedDay, mapping: defaultMapping });
    const records = parse(await journalsCsv(journals));
    for (const r of records) {
      expect(r.Narration.startsWith("'=HYPERLINK")).toBe(true);
      expect(r.TrackingOption1).toBe(`'${gym.name}`);
    }
    expect([...balances(records).values()]).toEqual([0, 0, 0]);
  });

  it("past 300 lines is a zip of CSVs of at most 300 lines each, no journal split, the same bytes each time", async () => {
    const journals: Journal[] = [];
    for (let day = 1; day <= 30; day++) {
      const date = `2026-11-${String(day).padStart(2, "0")}`;
      journals.push(...dayJournals({ date, gym: ponsonby, payments: workedDay, mapping: defaultMapping }));
    }
    const total = journals.reduce((s, j) => s + j.lines.length, 0);
    expect(total).toBe(300); // 30 days × 10 lines: one file
    journals.push(
      ...dayJournals({ date: "2026-12-01", gym: ponsonby, payments: workedDay, mapping: defaultMapping }),
    );
    const file = await journalFile("xero-journals", journals);
    expect(file.name).toBe("xero-journals.zip");
    expect(file.contentType).toBe("application/zip");
    const entries = unzipSync(file.bytes);
    expect(Object.keys(entries)).toEqual(["xero-journals-1.csv", "xero-journals-2.csv"]);
    let lines = 0;
    for (const bytes of Object.values(entries)) {
      const records = parse(new TextDecoder().decode(bytes));
      expect(records.length).toBeLessThanOrEqual(XERO_LINES_PER_FILE);
      lines += records.length;
      for (const sum of balances(records).values()) expect(sum).toBe(0);
    }
    expect(lines).toBe(310);
    expect((await journalFile("xero-journals", journals)).bytes).toEqual(file.bytes);
  });

  it("fits in one CSV up to 300 lines", async () => {
    const file = await journalFile(
      "xero-journals",
      dayJournals({ date: "2026-11-03", gym: ponsonby, payments: workedDay, mapping: defaultMapping }),
    );
    expect(file.name).toBe("xero-journals.csv");
  });
});
