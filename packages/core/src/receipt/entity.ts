import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/**
 * A receipt (docs/communications.md "Receipts"): issued once per paid payment, its content frozen
 * when issued (a later change of legal name, GST number or price does not rewrite it). Keyed by
 * the payment, so issuing twice finds the first.
 */
export const receiptEntity = new Entity({
  model: { entity: "receipt", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    payment_id: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    /** Unique within the organisation: 1, 2, 3 … (the counter below). */
    number: { type: "number", required: true, readOnly: true },
    issued_at: { type: "string", required: true, readOnly: true },
    /** The receipt as issued (contract/receipt.ts `Receipt`, less number and id). */
    content: { type: "any", required: true, readOnly: true },
    /**
     * When its email was claimed (receipt/service.ts `emailReceiptOnce`): set only where it is not,
     * before the send, so a redelivered event emails it at most once; removed if the send failed.
     */
    emailed_at: { type: "string" },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id", "payment_id"] },
      sk: { field: "sk", composite: [] },
    },
  },
});

/** The organisation's last receipt number: moved by one, conditionally, in each receipt's transaction. */
export const receiptCounterEntity = new Entity({
  model: { entity: "receipt_counter", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    last_number: { type: "number", required: true },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: [] },
    },
  },
});
