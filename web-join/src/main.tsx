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

// `/` arrives with the register page's top already painted (index.html's shell). React's first
// render replaces it: wait until the route's code is here, so that render is the same page
// rather than a loading spinner in between.
if (root.querySelector("[data-shell]") && !router.state.initialized) {
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    render();
  });
} else {
  render();
}
