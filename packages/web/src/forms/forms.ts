import { type UseFormInput, type UseFormReturnType, useForm } from "@mantine/form";
import { zod4Resolver } from "mantine-form-zod-resolver";
import type { z } from "zod";
import { CHECK_ON_SUBMIT } from "./lazy";

// biome-ignore lint/suspicious/noExplicitAny: form values are any record, as in @mantine/form
export type FormSchema = z.ZodType<Record<string, any>, Record<string, any>>;

export interface ZodFormInput<Schema extends FormSchema>
  extends Omit<UseFormInput<z.input<Schema>, z.output<Schema>>, "validate" | "transformValues"> {
  schema: Schema;
}

/**
 * `useForm` validated by a zod schema (the shared API schemas work as they are). Submitted
 * values are the schema's output: trimmed text, coerced numbers.
 *
 * Fields are checked on submit, not on blur: a message appearing as a field loses focus moves
 * the button below it, so a click on Save could land on nothing and need a second click. A
 * field's message clears as soon as it is edited.
 */
export function useZodForm<Schema extends FormSchema>({
  schema,
  ...input
}: ZodFormInput<Schema>): UseFormReturnType<z.input<Schema>, z.output<Schema>> {
  return useForm<z.input<Schema>, z.output<Schema>>({
    ...CHECK_ON_SUBMIT,
    ...input,
    validate: zod4Resolver(schema, { errorPriority: "first" }),
    transformValues: (values) => schema.parse(values) as z.output<Schema>,
  });
}
