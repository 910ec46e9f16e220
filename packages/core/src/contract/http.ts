/**
 * The API's envelopes and error shape (docs/architecture.md "API conventions"). Browser-safe:
 * the routers declare their answers with these and the web apps read the types.
 */
import { z } from "zod";

/** Every failure: `{ message, error?, errors? }` (422 adds field messages). */
export const errorSchema = z
  .object({
    message: z.string(),
    error: z.string().optional(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({ id: "Error" });
export type ErrorBody = z.output<typeof errorSchema>;

/**
 * 409 "it is already there": the error with the record that exists as `data` (a second confirm of
 * a membership answers the membership made by the first: docs/billing.md "One live membership per member").
 */
export const conflictWith = <T extends z.ZodType>(data: T) => errorSchema.extend({ data: data.optional() });

/** Success: `{ data }`. */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ data });

/** Paging beside a list that pages (cursor paging: DynamoDB has no cheap offsets or totals). */
export const pageMeta = z.object({ next_cursor: z.string().nullable(), per_page: z.number().int() });
export type PageMeta = z.output<typeof pageMeta>;

/** A list that pages: `{ data: [...], meta: { next_cursor, per_page } }`. */
export const pageEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), meta: pageMeta });

/** A list answered whole (small, bounded lists): `{ data: [...] }`, no paging promise. */
export const wholeList = <T extends z.ZodType>(item: T) => envelope(z.array(item));

export const deletedSchema = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: "Deleted" });
export type Deleted = z.output<typeof deletedSchema>;

export const urlSchema = z.object({ url: z.string() }).meta({ id: "Url" });
export type Url = z.output<typeof urlSchema>;

export const messageSchema = z.object({ message: z.string() }).meta({ id: "Message" });

/** `{ id, name }` of a related record. */
export const reference = z.object({ id: z.string(), name: z.string() });
export type Reference = z.output<typeof reference>;

/** A stored secret as the API shows it: whether it is set, and its last characters. */
export const maskedSecretSchema = z.object({ set: z.boolean(), masked: z.string().nullable() });
export type MaskedSecret = z.output<typeof maskedSecretSchema>;
