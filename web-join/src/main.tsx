import "@gym/web/styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App, router } from "./app/App";

const root = document.getElementById("root")!;
const render = () =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );

/** The app's register form (not the shell's). */
const APP_FORM = 'form[aria-label="Create your account"]:not([data-shell-form])';
/** The shell's text fields, matched to the app's by what each asks for. */
const FIELDS = [
  'input[autocomplete="name"]',
  'input[autocomplete="email"]',
  'input[autocomplete="tel"]',
  'input[autocomplete="bday"]',
  'input[autocomplete="new-password"]',
  'input[data-date="start"]',
];
/** The date fields (day-first text in both forms): left once filled, so the app's shows it as its own. */
const DATES = new Set(['input[autocomplete="bday"]', 'input[data-date="start"]']);

/**
 * `/` arrives with the register page already painted (index.html's shell) and, once
 * /register-shell.js has the gym's offer, its form usable: someone may have chosen a membership,
 * typed or focused a field, or pressed "Create account", before this code ran. React's first render
 * waits until the route's code and that offer are here (the `/` loader), so it replaces the shell
 * with the same page; this then carries the choice, what was typed and the focus into the app's form
 * (as typing does, so the form's own state has them), and answers the press. As
 * web-staff/src/main.tsx does for the sign-in form.
 */
function takeOverShell(shell: Element) {
  const shellForm = shell.querySelector("form");
  const shellInputs = FIELDS.map((selector) => shellForm?.querySelector<HTMLInputElement>(selector) ?? null);
  const active = document.activeElement;
  const focused = shellInputs.findIndex((input) => input !== null && input === active);
  // Each membership card is named "<membership>: <price>" in both forms (MembershipChoice.tsx).
  const chosen = shellForm?.querySelector('input[type="radio"]:checked')?.getAttribute("aria-label");
  // "Create account" pressed before this code ran (register-shell.js keeps the press).
  const pressed = shellForm?.hasAttribute("data-pressed");
  const touched = shellForm && !shellForm.hidden;
  render();
  if (!touched) return;
  const started = performance.now();
  const adopt = () => {
    const form = root.querySelector<HTMLFormElement>(APP_FORM);
    if (!form) {
      if (performance.now() - started < 5_000) requestAnimationFrame(adopt);
      return;
    }
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
    FIELDS.forEach((selector, i) => {
      const from = shellInputs[i];
      const to = form.querySelector<HTMLInputElement>(selector);
      // Only what was typed or changed (the start date has a default, today).
      if (!from || !to || !from.value || from.value === from.defaultValue || from.value === to.value) return;
      setValue.call(to, from.value);
      to.dispatchEvent(new Event("input", { bubbles: true }));
      to.dispatchEvent(new Event("change", { bubbles: true }));
      // A date input opens its calendar as it is typed in: leaving it closes it and shows the date
      // as the app writes it ("15/03/1990"). The field that had the focus is focused again below.
      if (DATES.has(selector)) to.dispatchEvent(new FocusEvent("focusout", { bubbles: true }));
    });
    if (chosen) {
      const card = [...form.querySelectorAll<HTMLElement>('[role="radio"]')].find(
        (radio) => radio.getAttribute("aria-label") === chosen,
      );
      if (card && card.getAttribute("aria-checked") !== "true") card.click();
    }
    // A field left before the app was here is left again in the app's form, so what runs on
    // leaving it runs now (the email's "already a member?" check).
    const email = form.querySelector<HTMLInputElement>(FIELDS[1]);
    if (email?.value && focused !== 1) {
      email.focus();
      email.blur();
    }
    if (focused >= 0) form.querySelector<HTMLInputElement>(FIELDS[focused])?.focus();
    // The press answered as the app's own, once what was carried over is drawn: the form checks
    // its fields and says what is missing, or creates the account.
    if (pressed) requestAnimationFrame(() => form.requestSubmit());
  };
  requestAnimationFrame(adopt);
}

const shell = root.querySelector("[data-shell]");
if (shell && !router.state.initialized) {
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    takeOverShell(shell);
  });
} else if (shell) {
  takeOverShell(shell);
} else {
  render();
}
