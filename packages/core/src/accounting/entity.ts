import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/**
 * An organisation's account mapping (docs/accounting.md "The accounts"): one record, written
 * whole by `PUT /api/organisations/{id}/accounting`. Absent: the defaults (Xero's standard NZ chart).
 */
export const accountingMappingEntity = new Entity({
  model: { entity: "accounting_mapping", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    /** contract/accounting.ts `AccountingMapping`, as validated. */
    mapping: { type: "any", required: true },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: [] },
    },
  },
});

/**
 * A day of a gym's journals as first exported (docs/accounting.md "Exporting twice"): created once,
 * conditionally, so every later export of that day gives these same lines, whatever the mapping
 * says by then. Sorted by date, so a period's marks are one Query.
 */
export const journalDayEntity = new Entity({
  model: { entity: "journal_day", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    date: { type: "string", required: true, readOnly: true },
    gym_id: { type: "string", required: true, readOnly: true },
    exported_at: { type: "string", required: true, readOnly: true },
    /** accounting/journal.ts `Journal[]` of that day and gym (possibly none). */
    journals: { type: "any", required: true, readOnly: true },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["date", "gym_id"] },
    },
  },
});

/**
 * A Stripe payout into a gym's bank (docs/accounting.md "Payouts"), as Stripe's API answered it when
 * its `payout.paid` event arrived: the deposit, the fees, and each charge inside matched to our
 * payment (or why not). Created once, conditionally (a redelivered event changes nothing). Sorted by
 * the day it arrives, so a period's payouts are one Query. Akahu settlements are not stored: they
 * are the day's settled bank payments (accounting/payouts.ts).
 */
export const payoutEntity = new Entity({
  model: { entity: "payout", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    arrival_date: { type: "string", required: true, readOnly: true },
    /** Stripe's `po_…`. */
    payout_id: { type: "string", required: true, readOnly: true },
    gym_id: { type: "string", required: true, readOnly: true },
    account: { type: "string", required: true, readOnly: true },
    amount: { type: "number", required: true, readOnly: true },
    fee: { type: "number", required: true, readOnly: true },
    gross: { type: "number", required: true, readOnly: true },
    /** accounting/payouts.ts `PayoutLine[]`. */
    lines: { type: "any", required: true, readOnly: true },
    recorded_at: { type: "string", required: true, readOnly: true },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["arrival_date", "payout_id"] },
    },
  },
});
