/** The lifecycle tables of docs/billing.md ("Cancellation…", "Pauses", "Price changes", "Manual payments"). */
import { expect } from "vitest";
import { addDays, addMonthsClamped } from "./calendar";
import type { RecurringFrequency } from "./frequency";
import { allocateManualPayment, cancellationTerms, checkPause, checkPriceChange } from "./lifecycle";
import { formatCents } from "./money";

type Row = Record<string, string>;
const cents = (text: string) => Math.round(Number(text.replace(/[$,]/g, "")) * 100);
const yes = (text: string) => text === "yes";

export const lifecycleChecks: Record<string, (row: Row) => void> = {
  cancellation: (r) => {
    const start = r.Start;
    const t = cancellationTerms({
      today: r.Today,
      immediate: yes(r.Immediate),
      schedule: {
        frequency: r.Frequency as RecurringFrequency,
        amount: cents(r.Amount),
        joining_fee: null,
        start_date: start,
        billing_date: start,
        pauses: [],
        price_change: null,
        cancellation_effective: null,
        term_ends_at: null,
        pif_ends_at: null,
      },
      term_ends_at: addMonthsClamped(start, 12),
      cooling_period_ends_at: addDays(start, 7),
      break_fee_basis_points: 2500,
    });
    expect({
      effective: t.effective,
      cooling: t.in_cooling_off,
      remaining: formatCents(t.remaining_term_value),
      fee: formatCents(t.break_fee),
    }).toEqual({
      effective: r["Takes effect"],
      cooling: yes(r["Cooling-off"]),
      remaining: r.Remaining,
      fee: r["Break fee"],
    });
  },
  pause: (r) => {
    const result = checkPause({
      today: r.Today,
      start: r.Start,
      end: r.End,
      pause_days_remaining: Number(r["Days left"]),
      pauses: [],
      cancellation_effective: null,
    });
    expect(
      result.ok ? `${result.value.days} days, ${result.value.remaining_after} left` : result.error.message,
    ).toBe(r.Result);
  },
  "price-change": (r) => {
    const result = checkPriceChange({
      today: r.Today,
      effective: r["Takes effect"],
      current_amount: cents(r.From),
      new_amount: cents(r.To),
      notice_days: Number(r.Notice),
    });
    expect(result.ok).toBe(yes(r.Allowed));
  },
  "manual-payment": (r) => {
    const a = allocateManualPayment(cents(r.Paid), cents(r.Owing));
    expect([a.debt_paid, a.credit, a.balance_after].map(formatCents)).toEqual([
      r["To the debt"],
      r["Credit ahead"],
      r["Owing after"],
    ]);
  },
};
