/**
 * A form whose fields are typed differently from the API body it sends (dollars for cents, text for
 * numbers): the form's values turn into the body, which is checked with the contract's own schema,
 * so a form restates no rule and its messages are the API's.
 */
import { z } from "zod";

/**
 * Checks a body with the contract's schema: its issues go on the form (`path` maps a body path to
 * a form path), and what is sent is the schema's output (trimmed text, defaults filled in).
 */
export function checkBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  ctx: z.RefinementCtx,
  path: (bodyPath: PropertyKey[]) => PropertyKey[] = (p) => p,
): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    ctx.addIssue({ code: "custom", path: path(issue.path), message: issue.message });
  }
  return z.NEVER;
}

/**
 * A form schema over values of type `Values` that sends `toBody(values)`, checked by `schema`;
 * `path` maps a body field to the form's where their names differ.
 */
export function bodyFormSchema<Values, S extends z.ZodType>(
  schema: S,
  toBody: (values: Values) => unknown,
  path?: (bodyPath: PropertyKey[]) => PropertyKey[],
) {
  return z
    .custom<Values>((value) => typeof value === "object" && value !== null)
    .transform((values, ctx): z.output<S> => checkBody(schema, toBody(values), ctx, path));
}

/** A number input left empty (Mantine gives "" for an empty `NumberInput`). */
export const isBlank = (value: unknown): boolean => value === "" || value === null || value === undefined;

/** Dollars as typed (two decimals at most) to whole cents, rounded to the cent. */
export const toCents = (dollars: number | string): number => Math.round(Number(dollars) * 100);

/** An optional count or dollar amount: null when left empty. */
export const wholeOrNull = (value: number | string): number | null => (isBlank(value) ? null : Number(value));
export const centsOrNull = (dollars: number | string): number | null =>
  isBlank(dollars) ? null : toCents(dollars);
