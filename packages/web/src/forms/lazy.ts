import { type UseFormInput, type UseFormReturnType, useForm } from "@mantine/form";
import type { zod4Resolver } from "mantine-form-zod-resolver";
import { useEffect, useRef } from "react";
import type { z } from "zod";
import type { FormSchema } from "./forms";

/**
 * How every form checks its fields: on submit, not on blur (a message appearing as a field loses
 * focus moves the button below it, so a click on Save could land on nothing).
 */
export const CHECK_ON_SUBMIT = { mode: "uncontrolled", validateInputOnBlur: false } as const;

export interface LazyZodFormInput<Schema extends FormSchema>
  extends Omit<UseFormInput<z.input<Schema>, z.output<Schema>>, "validate" | "transformValues"> {
  /** Imports the schema (`() => import(...).then((m) => m.schema)`), after the form has drawn. */
  loadSchema: () => Promise<Schema>;
}

export type LazyZodForm<Schema extends FormSchema> = UseFormReturnType<z.input<Schema>, z.output<Schema>> & {
  /** The schema, once imported (the same promise every time). */
  schema: () => Promise<Schema>;
};

/**
 * `useZodForm` (forms.ts) for a page's first form: the schema and zod are imported once the
 * form has drawn, so the page does not wait for zod's download (the join site's register page,
 * issue 12's LCP). A submit before they have arrived waits for them, then checks as usual.
 */
export function useLazyZodForm<Schema extends FormSchema>({
  loadSchema,
  ...input
}: LazyZodFormInput<Schema>): LazyZodForm<Schema> {
  const check = useRef<{ schema: Schema; validate: ReturnType<typeof zod4Resolver> } | null>(null);
  const loading = useRef<Promise<Schema> | null>(null);
  const schema = () => {
    loading.current ??= Promise.all([loadSchema(), import("mantine-form-zod-resolver")]).then(
      ([loaded, { zod4Resolver }]) => {
        check.current = { schema: loaded, validate: zod4Resolver(loaded, { errorPriority: "first" }) };
        return loaded;
      },
    );
    return loading.current;
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: imported once, when the form first draws
  useEffect(() => {
    void schema();
  }, []);

  const form = useForm<z.input<Schema>, z.output<Schema>>({
    ...CHECK_ON_SUBMIT,
    ...input,
    validate: (values) => check.current?.validate(values) ?? {},
    transformValues: (values) =>
      (check.current ? check.current.schema.parse(values) : values) as z.output<Schema>,
  });
  const onSubmit: typeof form.onSubmit = (handle, onInvalid) => {
    const submit = form.onSubmit(handle, onInvalid);
    return (event) => {
      if (check.current) return submit(event);
      event?.preventDefault();
      void schema().then(() => submit(event));
    };
  };
  return { ...form, onSubmit, schema };
}
