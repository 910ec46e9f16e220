import "@gym/web/styles.css";
import "@gym/web/staff-styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App, router } from "./app/App";

const root = document.getElementById("root")!;
const render = (container: Element = root) =>
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );

/**
 * `/login` arrives with the sign-in form already usable (index.html's shell): someone may have
 * typed, focused a field or pressed "Sign in" before this code ran, and may be typing still.
 * React's first render waits until the route's code is here; it draws the app into a hidden
 * container beside the shell, which keeps the page and the focus meanwhile. Once the app's form
 * is in place, one task (no key can come between) carries what was typed into it (field by field,
 * as typing does, so the form's own state has it), swaps the shell for the app, and puts the
 * focus and the caret where they were; then a pending sign-in is sent.
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
    const app = document.createElement("div");
    app.hidden = true;
    root.append(app);
    render(app);
    const started = performance.now();
    const swap = () => {
      const form = app.querySelector<HTMLFormElement>('form[aria-label="Sign in"]');
      const inputs = fields.map((name) => form?.querySelector<HTMLInputElement>(`input[type="${name}"]`));
      // The app went to another page (someone already signed in is sent on): show it as it is.
      const otherPage = !["/", "/login"].includes(router.state.location.pathname);
      if ((!form || inputs.some((input) => !input)) && !otherPage && performance.now() - started < 10_000) {
        requestAnimationFrame(swap);
        return;
      }
      const active = document.activeElement as HTMLInputElement | null;
      const focused = fields.find((name) => shellInput(name) === active);
      const caret =
        focused && active ? [active.selectionStart, active.selectionEnd, active.selectionDirection] : null;
      const typed = fields.map((name) => shellInput(name)?.value ?? "");
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
      inputs.forEach((input, i) => {
        if (!input || !typed[i] || input.value) return;
        setValue.call(input, typed[i]);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
      shell.remove();
      // The wrapper takes no part in the layout: the app is laid out as if drawn into #root.
      app.style.display = "contents";
      app.hidden = false;
      if (focused && form) {
        const input = inputs[fields.indexOf(focused)]!;
        input.focus();
        if (caret && caret[0] !== null && caret[1] !== null) {
          input.setSelectionRange(
            caret[0],
            caret[1],
            (caret[2] ?? undefined) as "forward" | "backward" | "none",
          );
        }
      }
      if (submitted && form) form.requestSubmit();
    };
    requestAnimationFrame(swap);
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
