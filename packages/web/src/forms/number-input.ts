import type { ClipboardEvent, KeyboardEvent } from "react";

/** What a number field says when something other than a number is typed into it. */
export const NOT_A_NUMBER = "Enter a number, like 24.90";

/** Characters a money or count field takes as it is typed (digits, the decimal point, a sign, $ and grouping). */
const ALLOWED = /^[\d.,\-+$\s]$/;

/**
 * Props for a Mantine `NumberInput` bound to a form field: the input silently drops letters, so
 * "abc" used to leave it empty and the person read "Value is required". Typing or pasting
 * something that is not a number now says so at the field at once (`NOT_A_NUMBER`).
 */
export function numberFieldProps(
  form: { setFieldError: (path: string, error: string) => void },
  path: string,
  message: string = NOT_A_NUMBER,
) {
  return {
    onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1) return;
      if (!ALLOWED.test(event.key)) form.setFieldError(path, message);
    },
    onPaste: (event: ClipboardEvent<HTMLInputElement>) => {
      const text = event.clipboardData.getData("text");
      if (text && !/\d/.test(text)) form.setFieldError(path, message);
    },
  };
}
