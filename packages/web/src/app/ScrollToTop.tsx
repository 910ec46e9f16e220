import { useEffect } from "react";
import { useLocation } from "react-router-dom";

/** Scrolls the window back to the top whenever the path changes. */
export function ScrollToTop() {
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0 });
  }, [pathname]);
  return null;
}
