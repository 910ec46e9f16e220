import "@gym/web/styles.css";
import "@gym/web/staff-styles.css";
import { renderOverShell, typeInto } from "@gym/web/shell";
import { App, router } from "./app/App";

const FIELDS = ["email", "password"] as const;

/**
 * `/login` arrives with the sign-in form already usable (index.html's shell; a press of its button
 * is kept by public/login-shell.js). What was typed, the focus and the caret are carried into the
 * app's form, and a pending sign-in is sent (renderOverShell: nothing done on the early form is lost).
 */
renderOverShell({
  App,
  router,
  appForm: 'form[aria-label="Sign in"]:not([data-shell-form])',
  readShell(shell) {
    const shellInputs = FIELDS.map((name) => shell.querySelector<HTMLInputElement>(`input[type="${name}"]`));
    const typed = shellInputs.map((input) => input?.value ?? "");
    const active = document.activeElement as HTMLInputElement | null;
    const focused = shellInputs.findIndex((input) => input !== null && input === active);
    const caret = focused >= 0 ? [active?.selectionStart ?? null, active?.selectionEnd ?? null] : null;
    return (form) => {
      FIELDS.forEach((name, i) => {
        const input = form.querySelector<HTMLInputElement>(`input[type="${name}"]`);
        // What the person typed wins over a value the page filled in (`?email=`).
        if (input && typed[i] && input.value !== typed[i]) typeInto(input, typed[i]);
      });
      if (focused < 0) return;
      const input = form.querySelector<HTMLInputElement>(`input[type="${FIELDS[focused]}"]`);
      input?.focus();
      if (caret?.[0] !== null && caret?.[0] !== undefined) input?.setSelectionRange(caret[0], caret[1]);
    };
  },
});
