/**
 * A price's trial as a membership takes it (docs/offers.md "Trials"). Pure: the join snapshots
 * these facts on the subscription, the price's quote shows them, and the schedule
 * (billing/schedule.ts `trial`) charges from them.
 */
import { addDays, type CivilDate } from "./calendar";
import type { BillingFrequency } from "./frequency";

export interface TrialJoin {
  /** The first day after the trial: the first paid period starts on it. */
  trial_ends_on: CivilDate;
  /** Cents for the whole trial; 0 free. */
  trial_amount: number;
}

/** The trial a membership of the price starting on `start` has (null: the price has none). */
export function trialOf(
  price: { trial_days?: number | null; trial_amount?: number | null; billing_frequency: BillingFrequency },
  start: CivilDate,
): TrialJoin | null {
  if (!price.trial_days || price.billing_frequency === "one_off") return null;
  return { trial_ends_on: addDays(start, price.trial_days), trial_amount: price.trial_amount ?? 0 };
}

/**
 * The billing date of a membership with a trial: the trial's end, or a later anchor asked for
 * (the first paid charge is then a pro-rata share from the trial's end).
 */
export function billingDateAfterTrial(trial: TrialJoin, asked: CivilDate | undefined | null): CivilDate {
  return asked && asked > trial.trial_ends_on ? asked : trial.trial_ends_on;
}
