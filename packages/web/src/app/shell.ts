import { type ComponentType, createElement, StrictMode } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";

/** The part of a data router this needs: whether its first route's code and loaders are in. */
interface InitialisedRouter {
  state: { initialized: boolean };
  subscribe(listener: (state: { initialized: boolean }) => void): () => void;
}

/**
 * Draws a site's app (in StrictMode) into `#root`, over index.html's early copy of its first page
 * when there is one (the shell, `[data-shell]`: the staff sign-in page, the join register page;
 * docs/performance.md "How staff /login is usable at once"). Someone may have typed into the early form, focused a field
 * or pressed its button before the app's code arrived, and none of it may be lost:
 *
 * - The app is drawn once the router is initialised (the route's code and loaders are in), so its
 *   first render is the same page, not a loader.
 * - `readShell` reads what the person did just before that render and returns what carries it into
 *   the app's form. The render is drawn at once (`flushSync`) and the carrying runs in the same task,
 *   so no key arrives in between (the app's form may take the focus as it is drawn: a key landing in
 *   it before the carrying would be overwritten, or lost with the early form).
 * - A press of the early form's button (kept as `data-pressed` by the site's early script: the CSP
 *   allows no inline script) is answered as the app's own once what was carried over is drawn.
 */
export function renderOverShell(options: {
  App: ComponentType;
  router: InitialisedRouter;
  /** The app's form that takes the early form's place. */
  appForm: string;
  readShell: (shell: Element) => (form: HTMLFormElement) => void;
}): void {
  const { router } = options;
  const root = document.getElementById("root")!;
  const app = createElement(StrictMode, null, createElement(options.App));
  const shell = root.querySelector("[data-shell]");
  if (!shell) {
    createRoot(root).render(app);
    return;
  }
  const start = () => {
    const carry = options.readShell(shell);
    const pressed = shell.querySelector("[data-shell-form]")?.hasAttribute("data-pressed");
    flushSync(() => createRoot(root).render(app));
    const started = performance.now();
    const adopt = () => {
      const form = root.querySelector<HTMLFormElement>(options.appForm);
      if (!form) {
        if (performance.now() - started < 5_000) requestAnimationFrame(adopt);
        return;
      }
      carry(form);
      if (pressed) requestAnimationFrame(() => form.requestSubmit());
    };
    adopt();
  };
  if (router.state.initialized) {
    start();
    return;
  }
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    start();
  });
}

/** Puts `value` into an app's input as typing does, so a form library listening for input has it. */
export function typeInto(input: HTMLInputElement, value: string, events: string[] = ["input"]): void {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, value);
  for (const type of events) input.dispatchEvent(new Event(type, { bubbles: true }));
}
