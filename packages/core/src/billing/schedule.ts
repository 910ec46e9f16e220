/**
 * The billing schedule: ONE pure function of a subscription's money facts that says which charges
 * fall due, when, for which period and for how much (docs/billing.md "The schedule function").
 *
 * Rules, in short (the document has the worked examples, which are tests):
 * - Paid in advance: a charge is due on its period's first day (`due = period_start`).
 * - Charge 0 is due on the start date. When start_date < billing_date it is the pro-rata stub
 *   [start_date, billing_date) (pro-rata.ts's rule) plus the joining fee; charge 1 is the first full
 *   period at billing_date. When they are equal, charge 0 is the first full period plus the joining fee.
 * - Full periods follow the anchor (billing_date) with period.ts: months keep the anchor's day, clamped.
 * - Pauses [start, end): every period boundary on or after a pause's start moves later by the pause's
 *   length, and the moved boundary becomes the new anchor (months keep ITS day from then on). So a pause
 *   starting inside a period, or on its last boundary, extends that period by the paused days; a pause
 *   covering the start date defers charge 0 to the pause's end. No charge is ever due inside a pause.
 *   Overlapping or touching pauses count once (their union); pauses before the start date are ignored.
 * - A price change applies to every period starting on or after its effective date (the stub included).
 * - Nothing is charged for a period starting on or after cancellation_effective.
 * - one_off (PIF): one charge, due on the start date, covering [start_date, pif_ends_at), amount plus
 *   joining fee; pauses do not move it (a pause of a PIF membership moves pif_ends_at itself).
 * - A trial (docs/offers.md "Trials"): charge 0 is the trial [start_date, trial.end) at trial.amount
 *   (0: free), no joining fee; the paid schedule is the one above started on trial.end (the joining
 *   fee with its first charge), every index one higher. A pause inside the trial does not extend it.
 *
 * Over 400 lines because it is one pure function and its private steps (pauses normalised, the
 * plan of segments, a period found, priced and turned into a charge); the three exported questions
 * (`chargeAfter`, `chargesBetween`, `chargeCovering`) share that plan, and a split would export
 * internals that nothing else should call.
 */
import { addDays, type CivilDate, compareCivilDates, daysBetween, isCivilDate } from "./calendar";
import type { BillingFrequency, RecurringFrequency } from "./frequency";
import { periodContaining, periodStart } from "./period";
import { proRataAmount } from "./pro-rata";

export interface SchedulePause {
  /** First paused day. */
  start: CivilDate;
  /** Exclusive: the first day not paused. */
  end: CivilDate;
}

export interface BillingSchedule {
  /** Price frequency; "one_off" = PIF. */
  frequency: BillingFrequency;
  /** Cents per period (current price, or force_price_amount). */
  amount: number;
  /** Cents, charged once with the first charge. */
  joining_fee: number | null;
  /** Membership/access starts. */
  start_date: CivilDate;
  /** Anchor: the first full period starts here (>= start_date); = start_date means no pro-rata. */
  billing_date: CivilDate;
  /** [start, end): no charge falls due inside; periods are extended by the paused days. */
  pauses: SchedulePause[];
  /** Periods starting on/after `effective` use `amount`. */
  price_change: { effective: CivilDate; amount: number } | null;
  /** Nothing is charged for a period starting on/after this date. */
  cancellation_effective: CivilDate | null;
  /** Informational (labels); billing continues after the term on the same price unless changed. */
  term_ends_at: CivilDate | null;
  /** one_off: one charge covering [start_date, pif_ends_at). */
  pif_ends_at: CivilDate | null;
  /** A trial: charge 0 covers [start_date, end) at `amount` cents; billing_date is on/after `end`. */
  trial?: { end: CivilDate; amount: number } | null;
}

export interface ScheduledCharge {
  /** 0 = the first charge (pro-rata stub and/or joining fee), then 1, 2, ... */
  index: number;
  /** The day it falls due (= period_start; the first charge is due on the start date). */
  due: CivilDate;
  period_start: CivilDate;
  /** Exclusive; the next charge's period_start. */
  period_end: CivilDate;
  /** Cents, before card surcharge, joining fee included. */
  amount: number;
  /** The part of amount that is the joining fee (0 after the first). */
  joining_fee: number;
  is_pro_rata: boolean;
  /** Set (true) on a trial's charge only. */
  is_trial?: true;
}

// ---- Validation and normalisation ------------------------------------------------------------------

function assertCents(n: number, name: string): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${name} must be whole cents >= 0, got ${n}`);
}

function assertDate(d: CivilDate, name: string): void {
  if (!isCivilDate(d)) throw new RangeError(`${name} must be a date written YYYY-MM-DD, got ${String(d)}`);
}

const before = (a: CivilDate, b: CivilDate) => compareCivilDates(a, b) < 0;
const onOrAfter = (a: CivilDate, b: CivilDate) => compareCivilDates(a, b) >= 0;

/** A merged pause with its length in days. */
interface Pause extends SchedulePause {
  days: number;
}

/**
 * Pauses sorted, empty ones and those ending on/before the start date dropped, the part before the
 * start date cut off, overlapping or touching ones merged (a day is paused or not; it never counts twice).
 */
export function normalisePauses(pauses: readonly SchedulePause[], startDate: CivilDate): Pause[] {
  const sorted = pauses
    .map((p) => {
      assertDate(p.start, "pause start");
      assertDate(p.end, "pause end");
      return { start: before(p.start, startDate) ? startDate : p.start, end: p.end };
    })
    .filter((p) => before(p.start, p.end))
    .sort((a, b) => compareCivilDates(a.start, b.start));
  const merged: SchedulePause[] = [];
  for (const p of sorted) {
    const last = merged.at(-1);
    if (last && !before(last.end, p.start)) {
      if (before(last.end, p.end)) last.end = p.end;
    } else merged.push({ ...p });
  }
  return merged.map((p) => ({ ...p, days: daysBetween(p.start, p.end) }));
}

// ---- The walk --------------------------------------------------------------------------------------

/**
 * A run of full periods on one anchor: local period j is [periodStart(anchor, j), periodStart(anchor, j + 1)),
 * charge index `firstIndex + j`. When a pause starts inside local period `lastLocal` (or on its end),
 * that period is the segment's last and ends at `lastEnd` (extended); the next segment is anchored there.
 */
interface Segment {
  anchor: CivilDate;
  firstIndex: number;
  last: { local: number; start: CivilDate; end: CivilDate } | null;
}

interface Plan {
  frequency: RecurringFrequency;
  /** Charge 0 when it is a pro-rata stub (is not part of any segment), else null. */
  stub: { start: CivilDate; end: CivilDate; days: number; periodDays: number } | null;
  /** Lazily produced segments, in order. */
  segments: () => Generator<Segment>;
}

/** Extends the period ending at `end` by every not-yet-used pause starting on or before its end. */
function absorb(end: CivilDate, pauses: Pause[], from: number): { end: CivilDate; next: number } {
  let e = end;
  let i = from;
  while (i < pauses.length && !before(e, pauses[i].start)) {
    e = addDays(e, pauses[i].days);
    i++;
  }
  return { end: e, next: i };
}

function plan(schedule: BillingSchedule, frequency: RecurringFrequency): Plan {
  const { start_date: start, billing_date: billing } = schedule;
  if (before(billing, start)) throw new RangeError("billing_date must be on or after start_date");
  const pauses = normalisePauses(schedule.pauses, start);
  // A pause covering the start date (after cutting, one starting on it) defers everything by its length.
  let used = 0;
  let shift = 0;
  if (pauses.length > 0 && pauses[0].start === start) {
    shift = pauses[0].days;
    used = 1;
  }
  let stub: Plan["stub"] = null;
  let firstAnchor: CivilDate;
  let firstIndex: number;
  if (start !== billing) {
    const denominatorStart = periodStart(billing, -1, frequency);
    if (!before(denominatorStart, start)) {
      throw new RangeError(
        `billing_date must be less than one full period after start_date (start after ${denominatorStart})`,
      );
    }
    const stubStart = addDays(start, shift);
    const absorbed = absorb(addDays(billing, shift), pauses, used);
    used = absorbed.next;
    stub = {
      start: stubStart,
      end: absorbed.end,
      days: daysBetween(start, billing),
      periodDays: daysBetween(denominatorStart, billing),
    };
    firstAnchor = absorbed.end;
    firstIndex = 1;
  } else {
    firstAnchor = addDays(start, shift);
    firstIndex = 0;
  }
  function* segments(): Generator<Segment> {
    let anchor = firstAnchor;
    let index = firstIndex;
    let next = used;
    for (;;) {
      if (next >= pauses.length) {
        yield { anchor, firstIndex: index, last: null };
        return;
      }
      // The period (on this anchor) whose days include the day before the pause, i.e. s < pause.start <= e.
      const p = periodContaining(anchor, addDays(pauses[next].start, -1), frequency);
      const absorbed = absorb(p.end, pauses, next);
      yield { anchor, firstIndex: index, last: { local: p.index, start: p.start, end: absorbed.end } };
      anchor = absorbed.end;
      index += p.index + 1;
      next = absorbed.next;
    }
  }
  return { frequency, stub, segments };
}

interface RawPeriod {
  index: number;
  start: CivilDate;
  end: CivilDate;
}

/** The first period (stub or full) of the plan with start >= date and index >= minIndex. */
function firstPeriodFrom(p: Plan, date: CivilDate, minIndex: number): RawPeriod {
  if (p.stub && minIndex <= 0 && onOrAfter(p.stub.start, date)) {
    return { index: 0, start: p.stub.start, end: p.stub.end };
  }
  for (const seg of p.segments()) {
    const lastIndex = seg.last ? seg.firstIndex + seg.last.local : Number.POSITIVE_INFINITY;
    if (lastIndex < minIndex) continue;
    // Local index of the first period on this anchor starting on or after `date`, and not before minIndex.
    let local = 0;
    if (before(seg.anchor, date)) {
      const c = periodContaining(seg.anchor, date, p.frequency);
      local = c.start === date ? c.index : c.index + 1;
    }
    local = Math.max(local, minIndex - seg.firstIndex);
    if (seg.last && local > seg.last.local) continue;
    if (seg.last && local === seg.last.local) {
      return { index: seg.firstIndex + local, start: seg.last.start, end: seg.last.end };
    }
    return {
      index: seg.firstIndex + local,
      start: periodStart(seg.anchor, local, p.frequency),
      end: periodStart(seg.anchor, local + 1, p.frequency),
    };
  }
  throw new Error("unreachable: the last segment is unbounded");
}

function amountFor(schedule: BillingSchedule, periodStartDate: CivilDate): number {
  const pc = schedule.price_change;
  return pc && onOrAfter(periodStartDate, pc.effective) ? pc.amount : schedule.amount;
}

function validate(schedule: BillingSchedule): void {
  assertCents(schedule.amount, "amount");
  if (schedule.joining_fee != null) assertCents(schedule.joining_fee, "joining_fee");
  assertDate(schedule.start_date, "start_date");
  assertDate(schedule.billing_date, "billing_date");
  if (schedule.price_change) {
    assertCents(schedule.price_change.amount, "price_change.amount");
    assertDate(schedule.price_change.effective, "price_change.effective");
  }
  if (schedule.cancellation_effective != null)
    assertDate(schedule.cancellation_effective, "cancellation_effective");
}

function toCharge(schedule: BillingSchedule, p: Plan, raw: RawPeriod): ScheduledCharge | null {
  const cancel = schedule.cancellation_effective;
  if (cancel != null && onOrAfter(raw.start, cancel)) return null;
  const joining = raw.index === 0 ? (schedule.joining_fee ?? 0) : 0;
  const price = amountFor(schedule, raw.start);
  const isStub = raw.index === 0 && p.stub !== null;
  const base = isStub && p.stub ? proRataAmount(price, p.stub.days, p.stub.periodDays) : price;
  return {
    index: raw.index,
    due: raw.start,
    period_start: raw.start,
    period_end: raw.end,
    amount: base + joining,
    joining_fee: joining,
    is_pro_rata: isStub,
  };
}

function pifCharge(schedule: BillingSchedule): ScheduledCharge | null {
  const end = schedule.pif_ends_at;
  if (end == null) throw new RangeError("a one_off (PIF) schedule needs pif_ends_at");
  assertDate(end, "pif_ends_at");
  if (!before(schedule.start_date, end)) throw new RangeError("pif_ends_at must be after start_date");
  const cancel = schedule.cancellation_effective;
  if (cancel != null && onOrAfter(schedule.start_date, cancel)) return null;
  const joining = schedule.joining_fee ?? 0;
  return {
    index: 0,
    due: schedule.start_date,
    period_start: schedule.start_date,
    period_end: end,
    amount: amountFor(schedule, schedule.start_date) + joining,
    joining_fee: joining,
    is_pro_rata: false,
  };
}

/** `chargeAfter` of a schedule without a trial (or of the paid part after one). */
function paidChargeAfter(
  schedule: BillingSchedule,
  previous: Pick<ScheduledCharge, "index" | "period_end"> | null,
): ScheduledCharge | null {
  validate(schedule);
  if (schedule.frequency === "one_off") return previous === null ? pifCharge(schedule) : null;
  const p = plan(schedule, schedule.frequency);
  if (previous === null) return toCharge(schedule, p, firstPeriodFrom(p, schedule.start_date, 0));
  assertDate(previous.period_end, "previous.period_end");
  return toCharge(schedule, p, firstPeriodFrom(p, previous.period_end, previous.index + 1));
}

/** `chargesBetween` without a trial. */
function paidChargesBetween(schedule: BillingSchedule, from: CivilDate, to: CivilDate): ScheduledCharge[] {
  validate(schedule);
  assertDate(from, "from");
  assertDate(to, "to");
  const inRange = (c: ScheduledCharge) => onOrAfter(c.due, from) && before(c.due, to);
  if (schedule.frequency === "one_off") {
    const c = pifCharge(schedule);
    return c && inRange(c) ? [c] : [];
  }
  const p = plan(schedule, schedule.frequency);
  const out: ScheduledCharge[] = [];
  let raw = firstPeriodFrom(p, from, 0);
  while (before(raw.start, to)) {
    const c = toCharge(schedule, p, raw);
    if (!c) break;
    out.push(c);
    raw = firstPeriodFrom(p, raw.end, raw.index + 1);
  }
  return out;
}

/** `chargeCovering` without a trial. */
function paidChargeCovering(schedule: BillingSchedule, date: CivilDate): ScheduledCharge | null {
  validate(schedule);
  assertDate(date, "date");
  if (schedule.frequency === "one_off") {
    const c = pifCharge(schedule);
    return c && onOrAfter(date, c.period_start) && before(date, c.period_end) ? c : null;
  }
  const p = plan(schedule, schedule.frequency);
  const after = firstPeriodFrom(p, addDays(date, 1), 0);
  if (after.index === 0) return null;
  const covering = firstPeriodFrom(p, "0001-01-01", after.index - 1);
  return onOrAfter(date, covering.start) ? toCharge(schedule, p, covering) : null;
}

// ---- Trials ----------------------------------------------------------------------------------------

/** The trial's charge (charge 0), or null when the cancellation takes effect on/before the start. */
function trialCharge(
  schedule: BillingSchedule,
  trial: { end: CivilDate; amount: number },
): ScheduledCharge | null {
  assertCents(trial.amount, "trial.amount");
  assertDate(trial.end, "trial.end");
  if (!before(schedule.start_date, trial.end)) throw new RangeError("trial.end must be after start_date");
  const cancel = schedule.cancellation_effective;
  if (cancel != null && onOrAfter(schedule.start_date, cancel)) return null;
  return {
    index: 0,
    due: schedule.start_date,
    period_start: schedule.start_date,
    period_end: trial.end,
    amount: trial.amount,
    joining_fee: 0,
    is_pro_rata: false,
    is_trial: true,
  };
}

/** The schedule after the trial: started on the trial's end. */
const paidPart = (schedule: BillingSchedule, end: CivilDate): BillingSchedule => ({
  ...schedule,
  start_date: end,
  trial: null,
});

const later = (c: ScheduledCharge | null): ScheduledCharge | null =>
  c ? { ...c, index: c.index + 1 } : null;

/**
 * The charge that follows `previous` (null = the first charge); null when nothing more is due
 * (cancelled, PIF done). "Follows" means: the schedule's first charge with a higher index whose period
 * starts on or after `previous.period_end`. So a period already charged is never charged again, even
 * when a pause added later has moved the boundaries (the next charge is then the first one after the
 * stored end).
 */
export function chargeAfter(
  schedule: BillingSchedule,
  previous: Pick<ScheduledCharge, "index" | "period_end"> | null,
): ScheduledCharge | null {
  const trial = schedule.trial;
  if (!trial || schedule.frequency === "one_off") return paidChargeAfter(schedule, previous);
  if (previous === null) return trialCharge(schedule, trial);
  const paid = paidPart(schedule, trial.end);
  return later(
    previous.index <= 0
      ? paidChargeAfter(paid, null)
      : paidChargeAfter(paid, { index: previous.index - 1, period_end: previous.period_end }),
  );
}

/** Every charge whose due date is in [from, to), in order: for previews, expected payments and tests. */
export function chargesBetween(schedule: BillingSchedule, from: CivilDate, to: CivilDate): ScheduledCharge[] {
  const trial = schedule.trial;
  if (!trial || schedule.frequency === "one_off") return paidChargesBetween(schedule, from, to);
  const first = trialCharge(schedule, trial);
  const inRange = first && onOrAfter(first.due, from) && before(first.due, to);
  const paid = paidChargesBetween(paidPart(schedule, trial.end), from, to).map(
    (c) => later(c) as ScheduledCharge,
  );
  return first && inRange ? [first, ...paid] : first ? paid : [];
}

/**
 * The scheduled charge whose period contains `date` (period_start <= date < period_end): the current
 * period for `current_period_start`/`current_period_end`, "cancel at the end of the paid period" and
 * start-early quotes. Null before the first charge's period (before the start date, or inside a pause
 * that deferred the first charge) and for periods not charged because of the cancellation. Inside a
 * trial: the trial's charge.
 */
export function chargeCovering(schedule: BillingSchedule, date: CivilDate): ScheduledCharge | null {
  const trial = schedule.trial;
  if (!trial || schedule.frequency === "one_off") return paidChargeCovering(schedule, date);
  const first = trialCharge(schedule, trial);
  if (!first) return null;
  if (before(date, schedule.start_date)) return null;
  if (before(date, trial.end)) return first;
  return later(paidChargeCovering(paidPart(schedule, trial.end), date));
}
