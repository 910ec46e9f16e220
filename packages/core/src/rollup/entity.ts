import { Entity } from "electrodb";
import { SERVICE } from "../db/entity";
import { COST_BUCKET_COUNTERS } from "./cost";

/** The offers' counters (day rows only): docs/offers.md "Reporting". */
export const OFFER_COUNTERS = [
  "trials_started",
  "trials_converted",
  "trials_stopped",
  "codes_used",
  "discount_given",
  "passes_sold",
  "pass_visits_used",
] as const;

/** The organisation-wide scope of a rollup row (every gym's changes are also added there). */
export const ORGANISATION_ROLLUP = "_organisation";
/**
 * The scope of the scheduled-payment rows (the expected-payments page's days ahead): day = the due
 * date, dim = `g:<gym_id>`, written by `scheduledChanges` (rollup/money.ts) only, never added to the
 * organisation's or a gym's dashboard rows (docs/data-model.md "Rollups").
 */
export const SCHEDULED_ROLLUP = "_scheduled";
/** The dim of a gym's scheduled-payment row. */
export const scheduledDim = (gymId: string) => `g:${gymId}`;

/**
 * What the payments still `upcoming` add to their due day's and gym's scheduled row: count, cents,
 * surcharge cents and count per payment type of those the billing run will charge, and apart the
 * count of those waiting for a new bank consent (the page lists them, it does not total them).
 */
export const SCHEDULED_COUNTERS = [
  "scheduled_count",
  "scheduled_amount",
  "scheduled_surcharge",
  "scheduled_stripe_card",
  "scheduled_bank_account",
  "scheduled_pif",
  "scheduled_waiting",
] as const;
/** The `day` of the running-total rows (sorts after every civil date). */
export const TOTAL_DAY = "total";

/**
 * Each counter row is split over this many shard rows (sk `day, dim, shard`): a transaction adds to
 * one shard, readers sum them (`sumShards`), so the money transactions of one organisation and day
 * do not all write one item (docs/data-model.md "Rollups"). Rows written before the shards (no
 * `shard`) are summed like any other shard.
 */
export const COUNTER_SHARDS = 16;

/** Counters a change adds to (integer cents for money; absent means 0). */
export const rollupCounters = [
  "collected",
  "collected_count",
  "expected",
  "expected_count",
  "failed",
  "failed_count",
  "joined",
  "cancelled",
  "owing",
  "owing_count",
  "visits",
  "paused",
  // Offers (docs/offers.md "Reporting"): trials started, converted and stopped, promo codes used
  // and the cents they took off the charges that fell due, passes sold and pass visits used.
  ...OFFER_COUNTERS,
  // The cost-per-visit histogram (rows day = month `YYYY-MM`, dim = `cpv`): member-months per bucket.
  ...COST_BUCKET_COUNTERS,
  // The payments scheduled ahead (scope `_scheduled`, per due day and gym).
  ...SCHEDULED_COUNTERS,
] as const;
export type RollupCounter = (typeof rollupCounters)[number];

const counters = Object.fromEntries(rollupCounters.map((c) => [c, { type: "number" }])) as Record<
  RollupCounter,
  { type: "number" }
>;

/**
 * Per gym (and per organisation, `scope` = `_organisation`) per day counters, added to with ADD
 * in the same transaction as the change that moves them (docs/data-model.md "Rollups").
 * `dim` is `all`, or `o:<offering_id>` (day rows and totals), `f:<billing_frequency>` and
 * `t:<payment_method>` (total rows only). `day` is a civil date or `total` (running totals:
 * active members = joined − cancelled, owing), or a month `YYYY-MM` with `dim` = `cpv` (the
 * cost-per-visit histogram of that month's member-month rows; sorts before the month's days).
 */
export const rollupEntity = new Entity({
  model: { entity: "rollup", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    scope: { type: "string", required: true, readOnly: true },
    day: { type: "string", required: true, readOnly: true },
    dim: { type: "string", required: true, readOnly: true },
    /** 0 … COUNTER_SHARDS − 1 (absent on rows written before the shards). */
    shard: { type: "number", readOnly: true },
    ...counters,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id", "scope"] },
      sk: { field: "sk", composite: ["day", "dim", "shard"] },
    },
  },
});

type ShardRow = { day: string; dim: string; shard?: number } & Partial<Record<RollupCounter, number>>;

/** Rollup rows as readers use them: one row per (day, dim), each counter the sum over its shards. */
export function sumShards<R extends ShardRow>(
  rows: R[],
): (Omit<R, "shard"> & { day: string; dim: string })[] {
  const out = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    const id = `${row.day}|${row.dim}`;
    const { shard: _shard, ...rest } = row;
    const held = out.get(id);
    if (!held) {
      out.set(id, { ...rest });
      continue;
    }
    for (const c of rollupCounters)
      if (row[c] !== undefined) held[c] = ((held[c] as number | undefined) ?? 0) + (row[c] ?? 0);
  }
  return [...out.values()] as (Omit<R, "shard"> & { day: string; dim: string })[];
}

/**
 * One member's paid cents and visits in one month at one gym (the cost-per-visit distribution and
 * the churn-risk list read one partition per gym and month).
 */
export const memberMonthEntity = new Entity({
  model: { entity: "member_month", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    gym_id: { type: "string", required: true, readOnly: true },
    month: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    member_name: { type: "string" },
    offering_id: { type: "string" },
    paid: { type: "number" },
    visits: { type: "number" },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id", "gym_id", "month"] },
      sk: { field: "sk", composite: ["user_id"] },
    },
  },
});

/**
 * The churn-risk list ("paid, no visits"): one item per member-month row with paid > 0 and no
 * visits, in the gym's partition and the organisation's (`scope` = `_organisation`), sorted by
 * `rank` (999,999,999,999 − paid, zero-padded) so a Query with a limit reads the top payers first.
 * Moved (delete old rank, put new) in the same transaction as the member-month row it mirrors.
 */
export const churnRiskEntity = new Entity({
  model: { entity: "churn_risk", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    scope: { type: "string", required: true, readOnly: true },
    month: { type: "string", required: true, readOnly: true },
    rank: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    gym_id: { type: "string", required: true, readOnly: true },
    member_name: { type: "string" },
    paid: { type: "number", required: true },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id", "scope", "month"] },
      // gym_id too: in the organisation's partition a member may be at risk at two gyms.
      sk: { field: "sk", composite: ["rank", "user_id", "gym_id"] },
    },
  },
});
