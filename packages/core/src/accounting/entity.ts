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
