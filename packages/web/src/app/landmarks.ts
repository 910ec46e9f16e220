import { createContext, useContext } from "react";

/**
 * True below a layout that already renders the page's one `main` landmark (the staff layout's
 * `AppShell.Main`): a shared page that is also shown on its own (the not-found and error pages)
 * then renders a plain block instead of a second, nested `main` (WCAG 1.3.1, axe-core
 * `landmark-no-duplicate-main`).
 */
export const InsideMain = createContext(false);

/** `"main"` for a page shown on its own, `"div"` inside a layout's `main`. */
export function useMainTag(): "main" | "div" {
  return useContext(InsideMain) ? "div" : "main";
}
