import type { UseFormReturnType } from "@mantine/form";
import type { FormEvent } from "react";
import { type ApiError, isApiError } from "../api/client";
import { toastApiError } from "../toast/toast";

const INVALID_SELECTOR = '[aria-invalid="true"], [data-error="true"], [data-invalid="true"]';
const FOCUSABLE = "input, textarea, select, button, [tabindex]";

/**
 * Scrolls smoothly to the first field marked as invalid and focuses it. Runs after the next
 * paint, so call it right after setting errors.
 */
export function scrollToFirstError(root: ParentNode | null = null): void {
  const run = () => {
    const scope = root ?? (typeof document === "undefined" ? null : document);
    const marked = scope?.querySelector<HTMLElement>(INVALID_SELECTOR);
    if (!marked) return;
    // Mantine marks both the wrapper and the control; land on the control itself.
    const field = marked.matches(FOCUSABLE)
      ? marked
      : (marked.querySelector<HTMLElement>(FOCUSABLE) ?? marked);
    field.scrollIntoView?.({ behavior: "smooth", block: "center" });
    field.focus?.({ preventScroll: true });
  };
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(() => run());
  else setTimeout(run, 0);
}

function hasPath(values: unknown, path: string): boolean {
  let current: unknown = values;
  for (const segment of path.split(".")) {
    if (current === null || typeof current !== "object" || !(segment in (current as object))) return false;
    current = (current as Record<string, unknown>)[segment];
  }
  return true;
}

export interface ServerErrorsResult {
  /** True when the error was a 422 with field errors that were put on the form. */
  applied: boolean;
  /** Messages for fields the form does not have (show them some other way). */
  unmatched: string[];
}

/**
 * Puts a 422's `errors` (field -> messages) on the form's fields. `fieldMap` renames server
 * fields to form paths where they differ (e.g. `{ bank_account_number: "account.number" }`).
 */
export function applyServerErrors<Values>(
  form: Pick<UseFormReturnType<Values>, "setErrors" | "getValues">,
  error: unknown,
  fieldMap: Record<string, string> = {},
): ServerErrorsResult {
  if (!isApiError(error) || error.status !== 422) return { applied: false, unmatched: [] };
  const values = form.getValues();
  const errors: Record<string, string> = {};
  const unmatched: string[] = [];
  for (const [field, messages] of Object.entries(error.errors)) {
    const path = fieldMap[field] ?? field;
    const message = messages[0];
    if (!message) continue;
    if (hasPath(values, path)) errors[path] = message;
    else unmatched.push(message);
  }
  if (Object.keys(errors).length > 0) form.setErrors(errors);
  return { applied: Object.keys(errors).length > 0, unmatched };
}

export interface SubmitOptions {
  /** Server field -> form path, for {@link applyServerErrors}. */
  fieldMap?: Record<string, string>;
  /** Handles any failure not shown on fields; defaults to an error toast with the server's message. */
  onError?: (error: unknown) => void;
  /** Toast title for failures that are not shown on fields. */
  errorSummary?: string;
}

/**
 * The submit handler for a form: validates, scrolls to the first invalid field when
 * validation fails, runs `action`, and on failure puts a 422's errors on the fields (and
 * scrolls to them) or shows the server's message.
 */
export function submitHandler<Values, Transformed>(
  form: UseFormReturnType<Values, Transformed>,
  action: (values: Transformed) => unknown | Promise<unknown>,
  options: SubmitOptions = {},
): (event?: FormEvent<HTMLFormElement>) => void {
  const fail = (error: unknown) => {
    if (options.onError) options.onError(error);
    else toastApiError(error, options.errorSummary);
  };
  return form.onSubmit(
    async (values, event) => {
      const formElement = (event?.currentTarget ?? event?.target ?? null) as HTMLFormElement | null;
      try {
        await action(values);
      } catch (error) {
        const result = applyServerErrors(form, error, options.fieldMap);
        if (result.applied) {
          scrollToFirstError(formElement);
          if (result.unmatched.length > 0) fail(error);
        } else {
          fail(error);
        }
      }
    },
    (_errors, _values, event) =>
      scrollToFirstError((event?.currentTarget ?? event?.target ?? null) as HTMLFormElement | null),
  ) as (event?: FormEvent<HTMLFormElement>) => void;
}

export type { ApiError };
