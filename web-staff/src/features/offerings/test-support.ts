/**
 * For component tests of pages with a DataTable. mantine-datatable renders a cell only when
 * `matchMedia("")` matches, as an empty media query does in every browser; the shared happy-dom
 * stub answers false for queries without a width, so make the empty query match here.
 */
export function matchEmptyMediaQuery(): () => void {
  const original = window.matchMedia;
  window.matchMedia = (query: string) =>
    query.trim() === "" ? ({ ...original(query), matches: true } as MediaQueryList) : original(query);
  return () => {
    window.matchMedia = original;
  };
}
