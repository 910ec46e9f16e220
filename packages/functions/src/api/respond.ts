/**
 * The shared pieces of a route declaration: request bodies and params, answers and their
 * envelopes. Schemas come from the contract (`@gym/core/contract/*`); these only wrap them in
 * the OpenAPI shapes @hono/zod-openapi expects. docs/architecture.md "Adding a domain".
 */
import { envelope, errorSchema, pageEnvelope, wholeList } from "@gym/core/contract/http";
import { z } from "@hono/zod-openapi";

export { envelope, errorSchema, pageEnvelope, wholeList };

/** `{id}` in the path: an id of the current organisation's records (unknown ids answer 404). */
export const idParam = z.object({ id: z.string().min(1).max(64) });

/** A path param holding an id, named as the path names it (`{gym_id}`, `{organisationId}` …). */
export const idParams = <K extends string>(...names: K[]) =>
  z.object(
    Object.fromEntries(names.map((name) => [name, z.string().min(1).max(64)])) as Record<K, z.ZodString>,
  );

/** A required JSON body validated by the contract's schema (422 with the spec's messages). */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  body: { content: { "application/json": { schema } }, required: true },
});

/** A JSON body the caller may leave out (archive, restore, links without options). */
export const optionalJsonBody = <T extends z.ZodType>(schema: T) => ({
  body: { content: { "application/json": { schema } }, required: false },
});

/** A declared JSON answer. */
export function json<T extends z.ZodType>(schema: T, description = "OK") {
  return { description, content: { "application/json": { schema } } };
}

const problem = (description: string) => json(errorSchema, description);

/** The error answers a route may give, for the OpenAPI document (and the test-mode answer check). */
export const errorResponses = {
  400: problem("Bad request"),
  401: problem("Not signed in"),
  403: problem("Forbidden"),
  404: problem("Not found"),
  409: problem("Conflict"),
  422: problem("Validation failed"),
  429: problem("Too many attempts"),
} as const;

/** A list answered whole: `{ data: [...] }` (see docs/architecture.md on paging). */
export const whole = <T>(data: T[]) => ({ data });

/** A page from core (`{ data, next_cursor, per_page }`) in the list envelope: `{ data, meta }`. */
export const paged = <T>(page: { data: T[]; next_cursor: string | null; per_page: number }) => ({
  data: page.data,
  meta: { next_cursor: page.next_cursor, per_page: page.per_page },
});

/** @deprecated name kept for routers not yet moved: use `pageEnvelope`. */
export const listEnvelope = pageEnvelope;

/**
 * The answer of an export call (`POST /api/*\/export`): 303 to the written file's short-lived
 * signed address on the staff site; following it downloads the CSV (docs/exports.md).
 */
export const exportResponse = {
  303: {
    description:
      "See Other: the CSV was written to the uploads store; `Location` is its short-lived signed address (the browser's fetch follows it and receives the file)",
    headers: z.object({ Location: z.string() }),
  },
} as const;

/** 303 to where an export was written; never cached. */
export function redirectToExport(location: string) {
  return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
}
