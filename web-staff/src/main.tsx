import "@gym/web/styles.css";
import "@gym/web/staff-styles.css";
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

/**
 * `/login` arrives with the sign-in form already usable (index.html's shell): someone may have
 * typed, focused a field or pressed "Sign in" before this code ran. React's first render waits
 * until the route's code is here, so it replaces the shell with the same page, then takes over
 * what was typed, the focus and the caret, and a pending sign-in (field by field, as typing does,
 * so the form's own state has them).
 */
function takeOverShell(shell: Element) {
  const fields = ["email", "password"] as const;
  const shellInput = (name: (typeof fields)[number]) =>
    shell.querySelector<HTMLInputElement>(`input[type="${name}"]`);
  let submitted = false;
  shell.querySelector("button")?.addEventListener("click", () => {
    submitted = true;
  });
  shell.querySelector("form")?.addEventListener("submit", (event) => {
    event.preventDefault();
    submitted = true;
  });
  return () => {
    // The shell's inputs are kept (not their values): what is typed while React renders, until
    // the app's form is in place, still goes into them and is carried over.
    const shellInputs = fields.map((name) => shellInput(name));
    const active = document.activeElement as HTMLInputElement | null;
    const focused = fields.find((name) => shellInput(name) === active);
    const caret = focused ? [active?.selectionStart ?? null, active?.selectionEnd ?? null] : null;
    render();
    const started = performance.now();
    const adopt = () => {
      const form = root.querySelector<HTMLFormElement>('form[aria-label="Sign in"]:not([data-shell-form])');
      const inputs = fields.map((name) => form?.querySelector<HTMLInputElement>(`input[type="${name}"]`));
      if (!form || inputs.some((input) => !input)) {
        if (performance.now() - started < 5_000) requestAnimationFrame(adopt);
        return;
      }
      const typed = shellInputs.map((input) => input?.value ?? "");
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
      inputs.forEach((input, i) => {
        if (!input || !typed[i] || input.value) return;
        setValue.call(input, typed[i]);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
      if (focused) {
        const input = inputs[fields.indexOf(focused)]!;
        input.focus();
        if (caret?.[0] !== null && caret?.[0] !== undefined) input.setSelectionRange(caret[0], caret[1]);
      }
      if (submitted) form.requestSubmit();
    };
    requestAnimationFrame(adopt);
  };
}

const shell = root.querySelector("[data-shell]");
if (shell && !router.state.initialized) {
  const start = takeOverShell(shell);
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    start();
  });
} else if (shell) {
  takeOverShell(shell)();
} else {
  render();
}
