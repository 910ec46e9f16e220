/**
 * The cost-per-visit buckets of a member's month (paid cents / visits), shared by the live
 * counters (writes.ts), the recount (backfill.ts) and the dashboard (dashboard.ts).
 */

/** Buckets in order; `max` is the exclusive upper bound in cents per visit. */
export const COST_BUCKETS = [
  { key: "no_visits", label: "Paid, no visits", max: 0 },
  { key: "under_5", label: "Under $5 a visit", max: 500 },
  { key: "5_to_10", label: "$5–$10 a visit", max: 1000 },
  { key: "10_to_20", label: "$10–$20 a visit", max: 2000 },
  { key: "20_to_50", label: "$20–$50 a visit", max: 5000 },
  { key: "50_plus", label: "$50 or more a visit", max: Number.POSITIVE_INFINITY },
] as const;

export const COST_BUCKET_COUNTERS = [
  "cpv_no_visits",
  "cpv_under_5",
  "cpv_5_to_10",
  "cpv_10_to_20",
  "cpv_20_to_50",
  "cpv_50_plus",
] as const;
export type CostBucketCounter = (typeof COST_BUCKET_COUNTERS)[number];

/** The `dim` of a month's histogram row (its `day` is the month, `YYYY-MM`). */
export const COST_DIM = "cpv";

/** A member-month's bucket counter; null when nothing was paid (only payers are counted). */
export function costBucketOf(paid: number, visits: number): CostBucketCounter | null {
  if (paid <= 0) return null;
  if (visits <= 0) return "cpv_no_visits";
  const per = paid / visits;
  const i = COST_BUCKETS.findIndex((b, n) => n > 0 && per < b.max);
  return COST_BUCKET_COUNTERS[i];
}

/** Paid but never came: the member-month is on the churn-risk list. */
export const isChurnRisk = (paid: number, visits: number) => paid > 0 && visits <= 0;

/** The churn item's sort key: the most paid sorts first. */
export const churnRank = (paid: number) => String(999_999_999_999 - paid).padStart(12, "0");
