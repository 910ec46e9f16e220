import { Entity } from "electrodb";
import { SERVICE } from "./db/entity";

/** The business clock (local runs and tests only): an offset from real time, one record. */
export const businessClockEntity = new Entity({
  model: { entity: "business_clock", version: "1", service: SERVICE },
  attributes: {
    offset_ms: { type: "number", required: true },
    set_at: { type: "string", required: true },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: [] },
      sk: { field: "sk", composite: [] },
    },
  },
});
