/**
 * Runs every worked example in docs/billing.md. Each table preceded by `<!-- examples: NAME -->` is
 * parsed here and each row becomes a test, so the document and the code cannot drift apart.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { graceUnits } from "../contract/organisation";
import { debtChargeInFlight, ledgerDebt } from "../payment/debt";
import type { PaymentRecord } from "../payment/store";
import { surchargeOfCharge } from "../payment/surcharge";
import { cents, parseExampleTables, type Row } from "./doc-tables.test-support";
import { gstIncluded } from "./gst";
import {
  addDays,
  addMonthsClamped,
  amountWithSurcharge,
  aucklandDate,
  aucklandOffsetMs,
  type BillingSchedule,
  billingFrequencies,
  billingFrequencySchema,
  billingToOrganisationFrequency,
  breakFee,
  calculateProRata,
  chargeAfter,
  chargesBetween,
  classifyDecline,
  daysBetween,
  debt,
  deriveSubscriptionState,
  formatCents,
  formatTerm,
  frequencyLabel,
  graceEndDate,
  graceEndsAt,
  isFrequencyEnabled,
  isHardDecline,
  isRecurringFrequency,
  membershipTypeLabel,
  nextBillingDate,
  organisationFrequencySchema,
  paymentsInTerm,
  period,
  periodContaining,
  periodLength,
  type RecurringFrequency,
  retryDates,
  roundHalfUp,
  type ScheduledCharge,
  type SubscriptionFacts,
  startOfAucklandDay,
  surcharge,
  termEnd,
  termUnitSchema,
  totalValue,
} from "./index";
import { lifecycleChecks } from "./lifecycle-examples.test-support";

const DOC_PATH = new URL("../../../../docs/billing.md", import.meta.url);

function int(text: string): number {
  if (!/^-?\d+$/.test(text)) throw new Error(`Not an integer cell: ${text}`);
  return Number(text);
}

function recurring(text: string): RecurringFrequency {
  const f = billingFrequencySchema.parse(text);
  if (!isRecurringFrequency(f)) throw new Error(`${text} is not recurring`);
  return f;
}

function offsetText(ms: number): string {
  const minutes = ms / 60_000;
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

const tables = parseExampleTables(readFileSync(DOC_PATH, "utf8"));

const none = (text: string) => text === "none";
const yesNo = (text: string) => {
  if (text !== "yes" && text !== "no") throw new Error(`Not yes/no: ${text}`);
  return text === "yes";
};

/** "2025-03-10 → 2025-03-20; …" */
function pausesCell(text: string): BillingSchedule["pauses"] {
  if (none(text)) return [];
  return text.split(";").map((p) => {
    const m = /^\s*(\S+)\s*→\s*(\S+)\s*$/.exec(p);
    if (!m) throw new Error(`Not a pause: ${p}`);
    return { start: m[1], end: m[2] };
  });
}

/** "$65.00 from 2025-03-01" */
function priceChangeCell(text: string): BillingSchedule["price_change"] {
  if (none(text)) return null;
  const m = /^(\S+) from (\S+)$/.exec(text);
  if (!m) throw new Error(`Not a price change: ${text}`);
  return { amount: cents(m[1]), effective: m[2] };
}

function scheduleNamed(name: string): BillingSchedule {
  const row = tables.get("schedules")?.find((r) => r.Schedule === name);
  if (!row) throw new Error(`No schedule ${name} in the schedules table`);
  return {
    frequency: billingFrequencySchema.parse(row.Frequency),
    amount: cents(row.Amount),
    joining_fee: cents(row["Joining fee"]),
    start_date: row.Start,
    billing_date: row["Billing date"],
    pauses: pausesCell(row.Pauses),
    price_change: priceChangeCell(row["Price change"]),
    cancellation_effective: none(row["Cancellation effective"]) ? null : row["Cancellation effective"],
    term_ends_at: null,
    pif_ends_at: none(row["PIF ends"]) ? null : row["PIF ends"],
  };
}

/** "key=value, key=value" facts over the derived-states defaults. */
const DERIVED_NOW = new Date("2026-03-10T00:00:00.000Z");
function factsCell(text: string): SubscriptionFacts {
  const facts: Record<string, unknown> = {
    now: DERIVED_NOW,
    billing_frequency: "monthly",
    current_period_end: "2026-03-31",
  };
  if (none(text)) return facts as unknown as SubscriptionFacts;
  for (const pair of text.split(",")) {
    const [key, value] = pair.split("=").map((x) => x.trim());
    if (!key || value === undefined) throw new Error(`Not key=value: ${pair}`);
    facts[key] =
      value === "true" ? true : value === "false" ? false : /^\d+$/.test(value) ? Number(value) : value;
  }
  return facts as unknown as SubscriptionFacts;
}

/** "failed period $60.00; sent retry $60.00" */
function paymentsCell(text: string) {
  return text.split(";").map((entry, i) => {
    const [status, kind, amount] = entry.trim().split(/\s+/);
    if (!["period", "retry", "manual"].includes(kind)) throw new Error(`Unknown payment kind: ${entry}`);
    return {
      status,
      amount: cents(amount),
      is_retry: kind === "retry",
      settles_debt: kind === "manual",
      created_at: `2026-01-01T00:00:${String(i).padStart(2, "0")}.000Z`,
    };
  });
}

/** "failed period $85.01; sent manual $85.01" as stored payment records, in that order. */
function storedPaymentsCell(text: string): PaymentRecord[] {
  return text.split(";").map((entry, i) => {
    const [status, kind, amount] = entry.trim().split(/\s+/);
    if (!["period", "pif", "break_fee", "retry", "manual"].includes(kind))
      throw new Error(`Unknown payment kind: ${entry}`);
    return {
      status,
      amount: cents(amount),
      type: kind === "manual" || kind === "pif" ? "pif" : "stripe_card",
      is_retry: kind === "retry",
      charge_index: kind === "period" || kind === "pif" ? i : undefined,
      meta: kind === "manual" || kind === "break_fee" ? { kind } : undefined,
      settled_at: `2026-01-01T00:00:${String(i).padStart(2, "0")}.000Z`,
    } as unknown as PaymentRecord;
  });
}

/** "250 bp + $0.30", "175 bp + none", "none" */
function ratesCell(text: string) {
  if (none(text)) return { card_surcharge_basis_points: null, card_surcharge_fixed_cents: null };
  const [bp, fixed] = text.split("+").map((t) => t.trim());
  return {
    card_surcharge_basis_points: none(bp) ? null : int(bp.replace(/\s*bp$/, "")),
    card_surcharge_fixed_cents: none(fixed) ? null : cents(fixed),
  };
}

const checks: Record<string, (row: Row) => void> = {
  ...lifecycleChecks,
  "debt-in-flight": (r) => {
    const payments = storedPaymentsCell(r.Payments);
    const inFlight = debtChargeInFlight(payments);
    expect(inFlight ? `refused (409): ${formatCents(inFlight.amount)} in flight` : "recorded").toBe(
      r["Manual payment"],
    );
  },
  "ledger-debt": (r) => {
    expect(ledgerDebt(storedPaymentsCell(r.Payments))).toEqual({
      balance_owing: cents(r["Balance owing"]),
      periods_owing: int(r["Periods owing"]),
    });
  },
  "charge-surcharge": (r) => {
    const organisation = ratesCell(r.Organisation) as {
      card_surcharge_basis_points: number;
      card_surcharge_fixed_cents: number;
    };
    expect(surchargeOfCharge(r.Method, cents(r.Amount), organisation, ratesCell(r["Gym override"]))).toBe(
      cents(r.Surcharge),
    );
  },
  "auckland-midnight": (r) => {
    const start = startOfAucklandDay(r["Auckland date"]);
    expect(start.toISOString()).toBe(r["Starts at (UTC)"]);
    expect(offsetText(aucklandOffsetMs(start))).toBe(r.Offset);
    expect(aucklandDate(start)).toBe(r["Auckland date"]);
    expect(aucklandDate(new Date(start.getTime() - 1))).toBe(addDays(r["Auckland date"], -1));
  },
  "auckland-date": (r) => {
    expect(aucklandDate(new Date(r["Instant (UTC)"]))).toBe(r["Auckland date"]);
  },
  "days-between": (r) => {
    expect(daysBetween(r.From, r.To)).toBe(int(r.Days));
    expect(addDays(r.From, int(r.Days))).toBe(r.To);
  },
  "add-months": (r) => {
    expect(addMonthsClamped(r.Anchor, int(r.Months))).toBe(r.Result);
  },
  gst: (r) => {
    expect(gstIncluded(cents(r.Total))).toBe(cents(r["GST included"]));
  },
  "round-half-up": (r) => {
    expect(roundHalfUp(int(r.Numerator), int(r.Denominator))).toBe(int(r.Result));
  },
  "format-cents": (r) => {
    expect(formatCents(int(r.Cents))).toBe(r.Formatted);
    expect(cents(r.Formatted)).toBe(int(r.Cents));
  },
  frequencies: (r) => {
    const f = billingFrequencySchema.parse(r.Frequency);
    expect(frequencyLabel[f]).toBe(r.Label);
    if (isRecurringFrequency(f)) {
      const { unit, count } = periodLength[f];
      expect(r.Period).toBe(`${count} ${count === 1 ? unit.replace(/s$/, "") : unit}`);
    } else {
      expect(r.Period).toBe("none");
    }
    const org = billingToOrganisationFrequency(f);
    if (r["Organisation setting"].startsWith("none")) {
      expect(org).toBeNull();
      const always = r["Organisation setting"] === "none (always allowed)";
      expect(r["Organisation setting"]).toBe(always ? "none (always allowed)" : "none (never enabled)");
      expect(isFrequencyEnabled(organisationFrequencySchema.options, f)).toBe(always);
      expect(isFrequencyEnabled([], f)).toBe(always);
    } else {
      expect(org).toBe(r["Organisation setting"]);
      expect(isFrequencyEnabled([organisationFrequencySchema.parse(org)], f)).toBe(true);
    }
  },
  "frequency-enabled": (r) => {
    const cell = r["Enabled organisation frequencies"];
    const enabled =
      cell === "none" ? [] : cell.split(",").map((s) => organisationFrequencySchema.parse(s.trim()));
    const f = billingFrequencySchema.parse(r.Frequency);
    expect(isFrequencyEnabled(enabled, f)).toBe({ yes: true, no: false }[r.Enabled]);
  },
  periods: (r) => {
    const p = period(r.Anchor, int(r.Index), recurring(r.Frequency));
    expect(p).toEqual({
      index: int(r.Index),
      start: r.Start,
      end: r.End,
      lastDay: r["Last day"],
      days: int(r.Days),
    });
  },
  "period-containing": (r) => {
    const f = recurring(r.Frequency);
    const p = periodContaining(r.Anchor, r.Date, f);
    expect({ index: p.index, start: p.start, end: p.end }).toEqual({
      index: int(r.Index),
      start: r.Start,
      end: r.End,
    });
    expect(nextBillingDate(r.Anchor, r.Date, f)).toBe(r["Next billing date"]);
  },
  "pro-rata": (r) => {
    const result = calculateProRata({
      amount: cents(r.Amount),
      billing_frequency: billingFrequencySchema.parse(r.Frequency),
      joining_fee: cents(r["Joining fee"]),
      start_date: r.Start,
      billing_date: r["Billing date"],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const isProRata = r.Start !== r["Billing date"];
    expect(result.value).toEqual({
      is_pro_rata: isProRata,
      pro_rata_days: int(r["Pro-rata days"]),
      period_days: int(r["Period days"]),
      period_start: r["Period start"],
      pro_rata_amount: cents(r["Pro-rata amount"]),
      joining_fee: cents(r["Joining fee"]),
      first_payment_date: r.Start,
      first_payment_total: cents(r["First payment"]),
      first_full_payment_date: r["Billing date"],
      recurring_amount: cents(r.Amount),
    });
  },
  "pro-rata-errors": (r) => {
    const result = calculateProRata({
      amount: 6000,
      billing_frequency: billingFrequencySchema.parse(r.Frequency),
      start_date: r.Start,
      billing_date: r["Billing date"],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe(r.Error);
  },
  surcharge: (r) => {
    const settings = { percentBasisPoints: int(r["Basis points"]), fixedCents: cents(r.Fixed) };
    expect(surcharge(cents(r.Amount), settings)).toBe(cents(r.Surcharge));
    expect(amountWithSurcharge(cents(r.Amount), settings)).toBe(cents(r["With surcharge"]));
  },
  terms: (r) => {
    const [amountText, unitText] = r.Term.split(" ");
    const termAmount = int(amountText);
    const unit = termUnitSchema.parse(unitText);
    const frequency = billingFrequencySchema.parse(r.Frequency);
    expect(termEnd(r.Start, termAmount, unit)).toBe(r["Term end"]);
    expect(formatTerm(termAmount, unit)).toBe(r.Formatted);
    expect(paymentsInTerm(r.Start, r["Term end"], frequency)).toBe(int(r.Payments));
    expect(totalValue(cents(r.Amount), frequency, termAmount, unit, r.Start)).toBe(cents(r["Total value"]));
  },
  "membership-type": (r) => {
    const none = (s: string) => s === "none";
    expect(
      membershipTypeLabel({
        billing_frequency: billingFrequencySchema.parse(r.Frequency),
        term_amount: none(r["Term amount"]) ? null : int(r["Term amount"]),
        term_unit: none(r["Term unit"]) ? null : termUnitSchema.parse(r["Term unit"]),
      }),
    ).toBe(r.Shown);
  },
  "break-fee": (r) => {
    expect(breakFee(cents(r["Remaining value"]), int(r["Basis points"]))).toBe(cents(r["Break fee"]));
  },
  schedules: (r) => {
    const s = scheduleNamed(r.Schedule);
    expect(chargeAfter(s, null)?.index).toBe(0);
    expect(tables.get("schedule-charges")?.some((c) => c.Schedule === r.Schedule)).toBe(true);
  },
  "schedule-charges": (r) => {
    const s = scheduleNamed(r.Schedule);
    let c: ScheduledCharge | null = chargeAfter(s, null);
    const walked: ScheduledCharge[] = c ? [c] : [];
    for (let k = 0; k < int(r.Index) && c; k++) {
      c = chargeAfter(s, c);
      if (c) walked.push(c);
    }
    if (none(r.Due)) {
      expect(c).toBeNull();
      return;
    }
    expect(c).toEqual({
      index: int(r.Index),
      due: r.Due,
      period_start: r.Due,
      period_end: r["Period end"],
      amount: cents(r.Amount),
      joining_fee: cents(r["Joining fee"]),
      is_pro_rata: yesNo(r["Pro-rata"]),
    });
    // The same charges, listed by due date.
    expect(chargesBetween(s, s.start_date, addDays(r.Due, 1))).toEqual(walked);
  },
  grace: (r) => {
    const [value, unit] = r.Grace.split(" ");
    const grace = { value: int(value), unit: graceUnits.find((u) => u === unit) ?? "days" };
    expect(grace.unit).toBe(unit);
    const failed = r["Failed at"].includes("T") ? new Date(r["Failed at"]) : r["Failed at"];
    expect(graceEndDate(failed, grace)).toBe(r["Grace ends on"]);
    expect(graceEndsAt(failed, grace).toISOString()).toBe(r.grace_period_ends_at);
  },
  retries: (r) => {
    const days = r["Retry days"].split(",").map((d) => int(d.trim()));
    const expected = none(r["Retry dates"]) ? [] : r["Retry dates"].split(",").map((d) => d.trim());
    expect(retryDates(r["Failed on"], days, r["Grace ends on"])).toEqual(expected);
  },
  declines: (r) => {
    expect(classifyDecline(r.Code).kind).toBe(r.Kind);
    expect(isHardDecline(r.Code)).toBe(!yesNo(r.Retried));
  },
  debt: (r) => {
    expect(debt(paymentsCell(r.Payments))).toEqual({
      balance_owing: cents(r["Balance owing"]),
      periods_owing: int(r["Periods owing"]),
    });
  },
  "derived-states": (r) => {
    const d = deriveSubscriptionState(factsCell(r.Facts));
    expect({
      paused: d.paused,
      cancelled: d.cancelled ? (d.cancellation_taken_effect ? "in effect" : "pending") : "no",
      undo: d.undo_cancellation_possible,
      grace: d.in_grace_period,
      upcoming: d.upcoming,
      active: d.active,
      colour: d.card_colour,
      startNow: d.start_now_offered,
      door: d.door.reason,
    }).toEqual({
      paused: yesNo(r.Paused),
      cancelled: r.Cancelled,
      undo: yesNo(r.Undo),
      grace: yesNo(r.Grace),
      upcoming: yesNo(r.Upcoming),
      active: yesNo(r.Active),
      colour: r.Colour,
      startNow: yesNo(r["Start now"]),
      door: r.Door,
    });
    expect(d.door.standing).toBe(
      ["Active", "Cancelled, inside the paid period", "Payment failed, inside the grace period"].includes(
        r.Door,
      ),
    );
  },
  "derived-values": (r) => {
    const d = deriveSubscriptionState(factsCell(r.Facts));
    expect(d.on_cooling_period).toBe(yesNo(r["Cooling period"]));
    expect(d.membership_type_label).toBe(r["Membership type"]);
    const at = r["Price change takes effect"];
    expect(d.price_change_takes_effect_at?.toISOString() ?? "none").toBe(at);
    expect(d.has_scheduled_price_change).toBe(!none(at));
  },
};

describe("docs/billing.md worked examples", () => {
  it("has exactly the example tables this test knows how to check, none empty", () => {
    expect([...tables.keys()].sort()).toEqual(Object.keys(checks).sort());
    for (const [name, rows] of tables) expect(rows.length, name).toBeGreaterThan(0);
  });

  it("lists every billing frequency in display order in the frequencies table", () => {
    expect(tables.get("frequencies")?.map((r) => r.Frequency)).toEqual([...billingFrequencies]);
  });

  for (const [name, rows] of tables) {
    describe(name, () => {
      rows.forEach((row, i) => {
        const label = Object.values(row).slice(0, 5).join(" | ");
        it(`row ${i + 1}: ${label}`, () => checks[name](row));
      });
    });
  }
});
