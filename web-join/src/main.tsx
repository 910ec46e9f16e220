import "@gym/web/styles.css";
import { renderOverShell, typeInto } from "@gym/web/shell";
import { App, router } from "./app/App";

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
 * typed or focused a field, or pressed "Create account" (register-shell.js keeps the press), before
 * this code ran. React's first render waits until the route's code and that offer are here (the `/`
 * loader), so it replaces the shell with the same page; the choice, what was typed and the focus
 * are carried into the app's form (as typing does, so the form's own state has them) and the press
 * is answered (renderOverShell, as on the staff sign-in page).
 */
renderOverShell({
  App,
  router,
  appForm: APP_FORM,
  readShell(shell) {
    const shellForm = shell.querySelector("form");
    // Not yet drawn (register-shell.js had no offer yet): nothing was done on it.
    if (!shellForm || shellForm.hidden) return () => {};
    const typed = FIELDS.map((selector) => {
      const input = shellForm.querySelector<HTMLInputElement>(selector);
      // Only what was typed or changed (the start date has a default, today).
      return input && input.value !== input.defaultValue ? input.value : "";
    });
    const active = document.activeElement;
    const focused = FIELDS.findIndex((selector) => shellForm.querySelector(selector) === active);
    // Each membership card is named "<membership>: <price>" in both forms (MembershipChoice.tsx).
    const chosen = shellForm.querySelector('input[type="radio"]:checked')?.getAttribute("aria-label");
    return (form) => {
      FIELDS.forEach((selector, i) => {
        const to = form.querySelector<HTMLInputElement>(selector);
        if (!to || !typed[i] || typed[i] === to.value) return;
        typeInto(to, typed[i], ["input", "change"]);
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
    };
  },
});
