/**
 * Runs every worked example in docs/offers.md: each table preceded by `<!-- examples: NAME -->` is
 * parsed and each row becomes a test, so the document and the code cannot drift apart.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { lastDayOf } from "../billing/calendar";
import { type DiscountTerms, discountOf } from "../billing/discount";
import { cents, parseExampleTables, type Row } from "../billing/doc-tables.test-support";
import type { BillingFrequency } from "../billing/frequency";
import { cancellationTerms } from "../billing/lifecycle";
import { type PassState, passDoor, passEntry } from "../billing/pass";
import { termEnd } from "../billing/term";
import { billingDateAfterTrial, trialOf } from "../billing/trial";
import { paymentRollup } from "../rollup/money";
import { joinDelta, trialStopChanges, visitChange } from "../rollup/writes";
import { chargeAfterOf, type NextCharge, scheduleOf } from "../subscription/schedule";
import type { SubscriptionRecord } from "../subscription/store";
import { refusalOf } from "./rules";
import type { PromoCodeRecord } from "./store";

const tables = parseExampleTables(
  readFileSync(new URL("../../../../docs/offers.md", import.meta.url), "utf8"),
);
const none = (text: string) => text === "none";
const yes = (text: string) => {
  if (text !== "yes" && text !== "no") throw new Error(`Not yes/no: ${text}`);
  return text === "yes";
};

/** "50%" / "33.33%" -> basis points; "$10.00" -> cents. */
function off(kind: string, text: string): number {
  if (kind === "fixed") return cents(text);
  const m = /^(\d+)(?:\.(\d{1,2}))?%$/.exec(text);
  if (!m) throw new Error(`Not a percentage: ${text}`);
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

/**
 * A subscription as the join makes it (trial/join.ts's trial and billing date) from a row's
 * "$60.00 monthly 12M", Trial, Trial costs, Joining fee, Promo ("50% for 1"), Starts, Billing.
 */
function memberOf(row: Row): SubscriptionRecord {
  const m = /^(\$[\d,.]+) (\w+)(?: (\d+)M)?$/.exec(row.Price);
  if (!m) throw new Error(`Not a price: ${row.Price}`);
  const frequency = m[2] as BillingFrequency;
  const start = row.Starts;
  const days = none(row.Trial) ? null : Number(row.Trial.replace(/ days?$/, ""));
  const trial = trialOf(
    {
      trial_days: days,
      trial_amount: row["Trial costs"] ? cents(row["Trial costs"]) : 0,
      billing_frequency: frequency,
    },
    start,
  );
  const asked = !row.Billing || none(row.Billing) ? undefined : row.Billing;
  const promo = row.Promo && !none(row.Promo) ? /^(\d+)% for (\d+)$/.exec(row.Promo) : null;
  return {
    billing_frequency: frequency,
    amount: cents(m[1]),
    joining_fee: row["Joining fee"] ? cents(row["Joining fee"]) : 0,
    start_date: start,
    billing_date: trial ? billingDateAfterTrial(trial, asked) : (asked ?? start),
    pauses: [],
    term_ends_at: m[3] ? termEnd(start, Number(m[3]), "months") : undefined,
    is_term_membership: Boolean(m[3]),
    ...trial,
    ...(promo
      ? {
          promo_code_id: "code",
          promo_kind: "percent",
          promo_value: Number(promo[1]) * 100,
          promo_periods: Number(promo[2]),
        }
      : {}),
  } as unknown as SubscriptionRecord;
}

/** The charges of a subscription from the first, in order (at most `count`). */
function chargesOf(sub: SubscriptionRecord, count: number): NextCharge[] {
  const out: NextCharge[] = [];
  let previous: NextCharge | null = null;
  while (out.length < count) {
    const next: NextCharge | null = chargeAfterOf(sub, previous);
    if (!next) break;
    out.push(next);
    previous = next;
  }
  return out;
}

/** A pass from a row's Visits, Used, Last visit and Ends. */
const passOf = (row: Row): PassState => ({
  visits: Number(row.Visits),
  used: Number(row.Used),
  last_visit_on: none(row["Last visit"]) ? null : row["Last visit"],
  ends_on: row.Ends,
});

const checks: Record<string, (row: Row) => void> = {
  "pass-entry"(row) {
    expect(passEntry(passOf(row), row["Entry on"])).toEqual({
      uses_visit: yes(row["Uses a visit"]),
      left: Number(row.Left),
    });
  },
  "pass-door"(row) {
    expect(passDoor(passOf(row), row.Today)).toEqual({ standing: yes(row.Door), reason: row.Reason });
  },
  "trial-charges"(row) {
    const index = Number(row.Charge);
    const charge = chargesOf(memberOf(row), index + 1)[index];
    expect(charge.index).toBe(index);
    expect(charge.due_on).toBe(row.Due);
    expect(lastDayOf(charge.period_end)).toBe(row["Last day"]);
    expect(charge.amount).toBe(cents(row.Amount));
    expect(charge.discount).toBe(cents(row.Discount));
    expect(charge.is_trial).toBe(index === 0 && !none(row.Trial));
  },
  "trial-stop"(row) {
    const sub = memberOf(row);
    const terms = cancellationTerms({
      today: row["Stopped on"],
      immediate: false,
      schedule: scheduleOf(sub),
      term_ends_at: sub.is_term_membership ? (sub.term_ends_at ?? null) : null,
      cooling_period_ends_at: null,
      break_fee_basis_points: 5_000,
    });
    expect(lastDayOf(terms.effective)).toBe(row["Last day"]);
    expect(terms.break_fee).toBe(cents(row["Break fee"]));
    const cancelled = {
      ...sub,
      cancelled_at: "2026-12-01T00:00:00.000Z",
      cancellation_effective_at: terms.effective,
    } as SubscriptionRecord;
    const paid = chargesOf(cancelled, 100).reduce((sum, c) => sum + c.amount, 0);
    expect(paid).toBe(cents(row["Paid in all"]));
  },
  discount(row) {
    const terms: DiscountTerms = {
      kind: row.Kind as DiscountTerms["kind"],
      value: off(row.Kind, row.Off),
      periods: row.Periods === "forever" ? null : Number(row.Periods),
    };
    const stub = yes(row.Stub);
    const index = Number(row.Charge);
    const charge = {
      index,
      amount: cents(row.Amount),
      joining_fee: cents(row["Joining fee"]),
      is_pro_rata: stub && index === 0,
    };
    const discount = discountOf(terms, charge, stub);
    expect(discount).toBe(cents(row.Discount));
    expect(charge.amount - discount).toBe(cents(row.Charged));
  },
  "offer-counts"(row) {
    const day = row.On;
    const sub = {
      organisation_id: "org",
      gym_id: "gym",
      ...(none(row["Trial ends"]) ? {} : { trial_ends_on: row["Trial ends"] }),
      ...(yes(row.Promo) ? { promo_code_id: "code" } : {}),
      ...(yes(row.Pass) ? { pass_visits: 10 } : {}),
    };
    const member = { organisation_id: "org", gym_id: "gym", user_id: "member" };
    const counted = (): Record<string, number | undefined> => {
      switch (row.Change) {
        case "join":
          return joinDelta(sub);
        case "charge falls due": {
          const {
            expected: _e,
            expected_count: _c,
            ...rest
          } = paymentRollup(
            { ...member, discount: cents(row.Discount), charge_index: Number(row.Charge) },
            sub,
            day,
            { expected: 2400, expected_count: 1 },
          ).delta;
          return rest;
        }
        case "cancellation recorded":
        case "cancellation undone": {
          const sign = row.Change === "cancellation recorded" ? 1 : -1;
          const changes = trialStopChanges(sub, day, sign);
          for (const c of changes) expect(c.day).toBe(day);
          return Object.assign({}, ...changes.map((c) => c.delta));
        }
        case "visit":
        case "visit using a pass":
          return visitChange({ ...member, day, pass: row.Change === "visit using a pass" }).delta;
        default:
          throw new Error(`Not a change: ${row.Change}`);
      }
    };
    const expected =
      row.Counts === "nothing"
        ? {}
        : Object.fromEntries(
            row.Counts.split(", ").map((c) => {
              const [name, n] = c.split(" ");
              return [name, Number(n)];
            }),
          );
    expect(counted()).toEqual(expected);
  },
  "promo-refusals"(row) {
    const [offering, gym] = row.Joining.split(" at ");
    // "a price of Anytime": the code names one of that offering's prices, not the one joined on.
    const priceOf = /^a price of (.+)$/.exec(row.For)?.[1];
    const code = {
      organisation_id: "org",
      promo_code_id: "code",
      code: "BF50",
      kind: "percent",
      value: 5_000,
      offering_ids: none(row.For) || row.For === "any" || priceOf ? [] : [row.For],
      price_ids: priceOf ? ["another-price"] : [],
      uses: Number(row.Uses),
      archived_at: yes(row.Archived) ? "2026-11-01T00:00:00.000Z" : undefined,
      starts_on: none(row.Starts) ? undefined : row.Starts,
      ends_on: none(row.Ends) ? undefined : row.Ends,
      gym_id: row.Gym === "any" ? undefined : row.Gym,
      use_limit: none(row.Limit) ? undefined : Number(row.Limit),
    } as unknown as PromoCodeRecord;
    const reason = refusalOf(code, {
      today: row.Today,
      gym_id: gym,
      price_id: "price",
      offering_id: offering,
      used_by_member: yes(row["Used before"]),
      code_offerings: priceOf
        ? [{ id: priceOf, name: priceOf, by_price: true }]
        : code.offering_ids.map((id) => ({ id, name: id, by_price: false })),
      gym_name: code.gym_id ?? gym,
    });
    expect(reason).toBe(none(row.Message) ? null : row.Message);
  },
};

describe("docs/offers.md examples", () => {
  it("has a check for every table and a table for every check", () => {
    expect([...tables.keys()].sort()).toEqual(Object.keys(checks).sort());
  });
  for (const [name, rows] of tables) {
    describe(name, () => {
      rows.forEach((row, i) => {
        it(`row ${i + 1}: ${row.Note ?? row.Message ?? ""}`, () => checks[name](row));
      });
    });
  }
});
