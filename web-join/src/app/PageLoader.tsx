import { lazy, Suspense } from "react";

/**
 * The UI kit's whole-page spinner, arriving with the first page's code rather than in the first
 * download: Mantine's Box, styles API and Loader are ~5 KB gzip of it (issue 12's 120 KB budget,
 * docs/performance.md), and `/` is painted by index.html's shell, never by this. Until it is here
 * an empty status region of the spinner's height holds its place.
 */
const Spinner = lazy(() => import("@gym/web/ui/PageLoader").then((m) => ({ default: m.PageLoader })));

/** The spinner for the router's first load and a remembered sign-in's answer (src/app only). */
export function PageLoader() {
  return (
    <Suspense fallback={<div role="status" aria-label="Loading" style={{ minHeight: "60vh" }} />}>
      <Spinner />
    </Suspense>
  );
}
