/**
 * The reference model: a deliberately plain, independent implementation of the membership
 * charging rules of docs/billing.md ("Calendar", "Periods", "First payment and pro-rata", "Card
 * surcharge", "Terms", "The schedule function", "Cancellation, cooling-off, terms", "Pauses",
 * "Price changes", "Start early"). It shares NO code with packages/core (no imports from it): the
 * simulator (packages/functions/src/local/simulate.ts) reconciles what the simulated providers
 * took against what this model says should have been taken. Written for clarity, not speed: dates
 * are "YYYY-MM-DD" strings, day arithmetic goes through whole UTC days, money is integer cents.
 */

export type Frequency =
  | "daily"
  | "weekly"
  | "fortnightly"
  | "monthly"
  | "bi_monthly"
  | "quarterly"
  | "twice_yearly"
  | "yearly"
  | "one_off";

export type Day = string; // YYYY-MM-DD on the Auckland calendar

// ---- calendar --------------------------------------------------------------------------------------

const MS_PER_DAY = 86_400_000;

function parts(day: Day): [number, number, number] {
  const [y, m, d] = day.split("-").map(Number);
  return [y, m, d];
}

export function dayNumber(day: Day): number {
  const [y, m, d] = parts(day);
  return Math.round(Date.UTC(y, m - 1, d) / MS_PER_DAY);
}

export function fromDayNumber(n: number): Day {
  return new Date(n * MS_PER_DAY).toISOString().slice(0, 10);
}

export const plusDays = (day: Day, n: number): Day => fromDayNumber(dayNumber(day) + n);
export const daysFrom = (a: Day, b: Day): number => dayNumber(b) - dayNumber(a);

function lastDayOfMonth(year: number, month1: number): number {
  return new Date(Date.UTC(year, month1, 0)).getUTCDate();
}

/** `n` months after the anchor, keeping the anchor's day of month, clamped to the month's last day. */
export function plusMonths(anchor: Day, n: number): Day {
  const [y, m, d] = parts(anchor);
  const zeroBased = y * 12 + (m - 1) + n;
  const year = Math.floor(zeroBased / 12);
  const month1 = (zeroBased % 12) + 1;
  const day = Math.min(d, lastDayOfMonth(year, month1));
  return `${String(year).padStart(4, "0")}-${String(month1).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

const DAYS_IN: Partial<Record<Frequency, number>> = { daily: 1, weekly: 7, fortnightly: 14 };
const MONTHS_IN: Partial<Record<Frequency, number>> = {
  monthly: 1,
  bi_monthly: 2,
  quarterly: 3,
  twice_yearly: 6,
  yearly: 12,
};

/** The i-th period boundary from an anchor (i may be negative). */
export function boundary(anchor: Day, i: number, frequency: Frequency): Day {
  const days = DAYS_IN[frequency];
  if (days !== undefined) return plusDays(anchor, i * days);
  const months = MONTHS_IN[frequency];
  if (months !== undefined) return plusMonths(anchor, i * months);
  throw new Error(`${frequency} has no periods`);
}

// ---- money -----------------------------------------------------------------------------------------

/** Nearest integer of a non-negative ratio, halves up (amounts here are never negative). */
export function roundHalfUp(numerator: number, denominator: number): number {
  const n = BigInt(numerator);
  const d = BigInt(denominator);
  const q = n / d;
  const r = n % d;
  return Number(r * 2n >= d ? q + 1n : q);
}

export interface Surcharge {
  basisPoints: number;
  fixedCents: number;
}

/** Card surcharge of a payment; nothing on a zero amount. */
export function surchargeOn(amount: number, s: Surcharge): number {
  if (amount === 0) return 0;
  return roundHalfUp(amount * s.basisPoints + s.fixedCents * 10_000, 10_000);
}

/** First-payment pro-rata: the stub's days over the full period that ends at the billing date. */
export function proRata(amount: number, frequency: Frequency, start: Day, billing: Day): number {
  const periodStart = boundary(billing, -1, frequency);
  return roundHalfUp(amount * daysFrom(start, billing), daysFrom(periodStart, billing));
}

/** A billing date is allowed when on or after the start and its full period starts before the start. */
export function billingDateAllowed(frequency: Frequency, start: Day, billing: Day): boolean {
  if (frequency === "one_off") return billing === start;
  return billing >= start && boundary(billing, -1, frequency) < start;
}

// ---- terms -----------------------------------------------------------------------------------------

export type TermUnit = "weeks" | "months" | "years";

export function termEndOf(start: Day, amount: number, unit: TermUnit): Day {
  if (unit === "weeks") return plusDays(start, amount * 7);
  return plusMonths(start, unit === "years" ? amount * 12 : amount);
}

// ---- the membership --------------------------------------------------------------------------------

export interface Pause {
  start: Day;
  /** The first day running again. */
  end: Day;
}

export interface Membership {
  frequency: Frequency;
  amount: number;
  joining_fee: number;
  start: Day;
  billing_date: Day;
  pauses: Pause[];
  price_change: { effective: Day; amount: number } | null;
  cancellation_effective: Day | null;
  /** PIF only: the day after the paid span. */
  pif_ends: Day | null;
  /** docs/offers.md "Trials": days and what the whole trial costs (recurring prices only). */
  trial?: Trial | null;
  /** docs/offers.md "The discount on each charge": the code's terms as the member joined with them. */
  promo?: Promo | null;
}

export interface Trial {
  days: number;
  /** Cents for the whole trial (0: free). */
  amount: number;
}

export interface Promo {
  kind: "percent" | "fixed";
  /** Basis points (percent) or cents (fixed). */
  value: number;
  /** The first N full periods (a stub before them is discounted too), or null: every period. */
  periods: number | null;
}

/** The card minimum (docs/billing.md "Prices below the card minimum"). */
export const CARD_MINIMUM = 50;

/**
 * What a promo code takes off a paid charge (docs/offers.md): a percent of the period part (never
 * the joining fee) rounded half-up, or a fixed amount at most the period part; only inside the
 * first N full periods (a stub before them counts as part of the first); never leaving a positive
 * charge under the card minimum (cut so the minimum is charged, or nothing off when the charge is
 * under it). `paidIndex`: 0 for the first paid charge.
 */
export function promoDiscount(
  promo: Promo,
  charge: { amount: number; joining_fee: number },
  paidIndex: number,
  startsWithStub: boolean,
): number {
  if (promo.periods !== null && paidIndex >= promo.periods + (startsWithStub ? 1 : 0)) return 0;
  const part = charge.amount - charge.joining_fee;
  let off = promo.kind === "percent" ? roundHalfUp(part * promo.value, 10_000) : Math.min(promo.value, part);
  const left = charge.amount - off;
  if (left > 0 && left < CARD_MINIMUM) off = charge.amount >= CARD_MINIMUM ? charge.amount - CARD_MINIMUM : 0;
  return off;
}

export interface Charge {
  index: number;
  due: Day;
  period_start: Day;
  period_end: Day;
  /** Cents before any card surcharge, joining fee included, promo discount taken off. */
  amount: number;
  joining_fee: number;
  pro_rata: boolean;
  /** Cents a promo code took off (0 without one). */
  discount?: number;
}

/** Overlapping or touching pauses merged; days before the start ignored; sorted. */
function mergedPauses(pauses: Pause[], start: Day): Pause[] {
  const clipped = pauses
    .map((p) => ({ start: p.start < start ? start : p.start, end: p.end }))
    .filter((p) => p.end > p.start)
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const out: Pause[] = [];
  for (const p of clipped) {
    const last = out.at(-1);
    if (last && p.start <= last.end) {
      if (p.end > last.end) last.end = p.end;
    } else out.push({ ...p });
  }
  return out;
}

/**
 * Every charge of the membership whose due date is on or before `until`, walking forward:
 * charge 0 on the start date (a pro-rata stub up to the billing date, or the first full period),
 * then full periods from the billing date. A pause starting inside a period, or on the day the
 * next one would start, extends that period by its days and re-anchors the schedule at the moved
 * boundary; a pause covering the start defers charge 0 to its end. Nothing is due on or after the
 * cancellation's effective date. The price change applies to periods starting on or after it.
 */
export function chargesUntil(m: Membership, until: Day): Charge[] {
  if (m.trial && m.frequency !== "one_off") return withTrial(m, m.trial, until);
  const charges = listPriceCharges(m, until);
  const promo = m.promo;
  if (!promo || m.frequency === "one_off") return charges;
  const stub = charges[0]?.pro_rata === true;
  return charges.map((c, i) => {
    const discount = promoDiscount(promo, c, i, stub);
    return { ...c, amount: c.amount - discount, discount };
  });
}

/**
 * docs/offers.md "The charges of a membership with a trial": charge 0 is the trial (its days, its
 * cost, no joining fee, never discounted); the paid schedule is the membership's as if it started
 * the day after the trial (a billing date asked for before then is that day; a pause reaching past
 * the trial defers it, one inside the trial does nothing), its charges numbered from 1.
 */
function withTrial(m: Membership, trial: Trial, until: Day): Charge[] {
  const ends = plusDays(m.start, trial.days);
  if (m.start > until || (m.cancellation_effective !== null && m.start >= m.cancellation_effective))
    return [];
  const paid = chargesUntil(
    { ...m, trial: null, start: ends, billing_date: m.billing_date > ends ? m.billing_date : ends },
    until,
  );
  return [
    {
      index: 0,
      due: m.start,
      period_start: m.start,
      period_end: ends,
      amount: trial.amount,
      joining_fee: 0,
      pro_rata: false,
      discount: 0,
    },
    ...paid.map((c) => ({ ...c, index: c.index + 1 })),
  ];
}

/** The charges at the list price (no trial, no discount). */
function listPriceCharges(m: Membership, until: Day): Charge[] {
  const amountAt = (day: Day) =>
    m.price_change && day >= m.price_change.effective ? m.price_change.amount : m.amount;
  const stopped = (day: Day) => m.cancellation_effective !== null && day >= m.cancellation_effective;
  if (m.frequency === "one_off") {
    if (m.start > until || stopped(m.start)) return [];
    const amount = amountAt(m.start);
    return [
      {
        index: 0,
        due: m.start,
        period_start: m.start,
        period_end: m.pif_ends ?? m.start,
        amount: amount + m.joining_fee,
        joining_fee: m.joining_fee,
        pro_rata: false,
      },
    ];
  }
  const pauses = mergedPauses(m.pauses, m.start);
  let next = 0;
  const isStub = m.start < m.billing_date;
  let start = m.start;
  let anchor = m.billing_date;
  let step = isStub ? 0 : 1;
  let end = boundary(anchor, step, m.frequency);
  // A pause covering the start date moves the start and everything after it: the billing date
  // (the anchor) moves by the paused days and stays the anchor (so with no stub, the first period
  // is a whole period from the new start).
  while (next < pauses.length && pauses[next].start <= start) {
    const shift = daysFrom(pauses[next].start, pauses[next].end);
    start = plusDays(start, shift);
    anchor = plusDays(anchor, shift);
    end = boundary(anchor, step, m.frequency);
    next++;
  }
  const charges: Charge[] = [];
  for (let index = 0; ; index++) {
    while (next < pauses.length && pauses[next].start <= end) {
      end = plusDays(end, daysFrom(pauses[next].start, pauses[next].end));
      anchor = end;
      step = 0;
      next++;
    }
    if (start > until || stopped(start)) return charges;
    const price = amountAt(start);
    let amount = price;
    let joining = 0;
    let pro = false;
    if (index === 0) {
      joining = m.joining_fee;
      if (isStub) {
        amount = proRata(price, m.frequency, m.start, m.billing_date);
        pro = true;
      }
    }
    charges.push({
      index,
      due: start,
      period_start: start,
      period_end: end,
      amount: amount + joining,
      joining_fee: joining,
      pro_rata: pro,
    });
    start = end;
    step += 1;
    end = boundary(anchor, step, m.frequency);
  }
}

/** The charge whose period contains the day (pauses included), if any. */
export function chargeCoveringDay(m: Membership, day: Day): Charge | null {
  return chargesUntil(m, day).find((c) => c.period_start <= day && day < c.period_end) ?? null;
}

// ---- lifecycle decisions the model makes itself --------------------------------------------------

export interface CancelDecision {
  effective: Day;
  in_cooling_off: boolean;
  remaining_term_value: number;
  break_fee: number;
}

/**
 * Cancelling on `today`: immediate takes effect today; otherwise at the end of the period covering
 * today, or the start date when the membership has not started. A term membership cancelled
 * after cooling-off and before the term ends owes the break fee: basis points of what the
 * schedule would still have charged (joining fee excluded) from the effective date to the term end.
 */
/**
 * docs/billing.md "Pauses": cancelling removes every booked pause that would start on or after the
 * day the cancellation takes effect (and after today) and gives its days back. (Issue 22: the
 * engine and this model both kept booked pauses before; neither rule was written down.)
 */
export function withoutBookedPauses(m: Membership, today: Day, effective: Day): Membership {
  return { ...m, pauses: m.pauses.filter((p) => p.start <= today || p.start < effective) };
}

export function decideCancel(
  m: Membership,
  today: Day,
  immediate: boolean,
  term: { ends: Day; cooling_ends: Day; break_fee_bp: number } | null,
): CancelDecision {
  let effective: Day;
  if (immediate) effective = today;
  else if (today < m.start) effective = m.start;
  else effective = chargeCoveringDay(m, today)?.period_end ?? today;
  let remaining = 0;
  const inCooling = term !== null && today < term.cooling_ends;
  if (term && !inCooling && effective < term.ends) {
    const uncancelled = { ...m, cancellation_effective: null };
    for (const c of chargesUntil(uncancelled, plusDays(term.ends, -1)))
      if (c.due >= effective && c.due < term.ends) remaining += c.amount - c.joining_fee;
  }
  return {
    effective,
    in_cooling_off: inCooling,
    remaining_term_value: remaining,
    break_fee: term && !inCooling ? roundHalfUp(remaining * term.break_fee_bp, 10_000) : 0,
  };
}

/**
 * Starting an upcoming membership early on `today`: the start becomes today; a billing date equal
 * to the old start moves with it, a later one is kept while still allowed (else it becomes today).
 */
export function startEarly(m: Membership, today: Day): Membership {
  let billing = m.billing_date === m.start ? today : m.billing_date;
  if (!billingDateAllowed(m.frequency, today, billing)) billing = today;
  return { ...m, start: today, billing_date: billing };
}

// ---- issue 22: settings changed during a run, the schedule's days, member-side pauses, PIF transfers ----

export interface Rates {
  /** The first day these rates are in effect. */
  from: Day;
  surcharge: Surcharge;
  breakFeeBp: number;
}

/**
 * docs/billing.md "Settings → Gym overrides": a gym's override, each number falling back on its own
 * to the organisation's (unset = null).
 */
export function ratesWithOverride(
  from: Day,
  organisation: { surcharge: Surcharge; breakFeeBp: number },
  override: { basisPoints: number | null; fixedCents: number | null; breakFeeBp: number | null },
): Rates {
  return {
    from,
    surcharge: {
      basisPoints: override.basisPoints ?? organisation.surcharge.basisPoints,
      fixedCents: override.fixedCents ?? organisation.surcharge.fixedCents,
    },
    breakFeeBp: override.breakFeeBp ?? organisation.breakFeeBp,
  };
}

/**
 * docs/billing.md "The surcharge of a charge": the rates are read when the charge is priced (the
 * claim, the retry), so a charge carries the rate in effect on the day it is made: the last change
 * on or before that day. The break fee's rate is the one in effect when the cancellation makes it.
 */
export function ratesOn(history: Rates[], day: Day): Rates {
  const inEffect = history.filter((r) => r.from <= day).sort((a, b) => (a.from < b.from ? -1 : 1));
  return inEffect.at(-1) ?? history[0];
}

/**
 * docs/billing.md "Catching up": a charge due on a day the schedule did not run is made by the first
 * run after it (each once, in order), so it is made, priced and (when it fails) failed on the first
 * day on or after its due date that the schedule runs.
 */
export function chargedOn(due: Day, scheduleDown: (day: Day) => boolean): Day {
  let day = due;
  while (scheduleDown(day)) day = plusDays(day, 1);
  return day;
}

/**
 * docs/billing.md "Pauses": a member books a pause by its first and LAST paused day (inclusive);
 * the member is back the day after the last day.
 */
export function memberPause(first: Day, last: Day): Pause {
  return { start: first, end: plusDays(last, 1) };
}

/**
 * docs/billing.md "Pay in full": a bank transfer not yet marked received is owed, not paid (the
 * PIF amount owing, no door access); once received it is paid once, and the door opens until the
 * paid span ends (`pif_ends`, exclusive).
 */
export function pifTransferStanding(
  amount: number,
  received: boolean,
  today: Day,
  pifEnds: Day,
): { balance_owing: number; payments_sum: number; door_access: boolean } {
  return received
    ? { balance_owing: 0, payments_sum: amount, door_access: today < pifEnds }
    : { balance_owing: amount, payments_sum: 0, door_access: false };
}

// ---- docs/offers.md "Visit passes" --------------------------------------------------------------

/**
 * A visit pass's door, from the days a member came in (in order): the first entry of a day uses
 * one visit while any is left and the pass has not ended (`ends`: its first day not valid); later
 * entries that day use none. Answers the visits used and, per entry, whether the door let them in
 * (it does on the day that used the last visit, and not from the next day, nor from the pass's end).
 */
export function passVisits(
  visits: number,
  ends: Day,
  entries: Day[],
  before: { used: number; last: Day | null } = { used: 0, last: null },
): { used: number; admitted: boolean[]; usedBy: boolean[] } {
  let used = before.used;
  let last: Day | null = before.last;
  const admitted: boolean[] = [];
  const usedBy: boolean[] = [];
  for (const day of entries) {
    const open = day < ends && (used < visits || day === last);
    const uses = day < ends && used < visits && (last === null || day > last);
    admitted.push(open);
    usedBy.push(uses);
    if (uses) {
      used += 1;
      last = day;
    }
  }
  return { used, admitted, usedBy };
}
