import { z } from "@hono/zod-openapi";

/** Success envelope: `{ data }`. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ data });
}

/** List envelope: `{ data: [...], meta: { next_cursor, per_page } }` (cursor paging). */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    meta: z.object({ next_cursor: z.string().nullable(), per_page: z.number().int() }),
  });
}

export const errorSchema = z
  .object({
    message: z.string(),
    error: z.string().optional(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .openapi("Error");

/** The error answers every route may give, for the OpenAPI document. */
export const errorResponses = {
  400: { description: "Bad request", content: { "application/json": { schema: errorSchema } } },
  401: { description: "Not signed in", content: { "application/json": { schema: errorSchema } } },
  403: { description: "Forbidden", content: { "application/json": { schema: errorSchema } } },
  404: { description: "Not found", content: { "application/json": { schema: errorSchema } } },
  422: { description: "Validation failed", content: { "application/json": { schema: errorSchema } } },
} as const;

export function json<T extends z.ZodType>(schema: T, description = "OK") {
  return { description, content: { "application/json": { schema } } };
}
