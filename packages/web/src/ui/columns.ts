import type { MantineTheme } from "@mantine/core";

/**
 * Spread into a mantine-datatable column that is secondary: it is shown from the small breakpoint
 * up, so on a phone a list keeps its few key columns at full width instead of scrolling sideways
 * with badges cut short.
 */
export const wideScreensOnly = {
  visibleMediaQuery: (theme: MantineTheme) => `(min-width: ${theme.breakpoints.sm})`,
} as const;

/**
 * The same for a plain Mantine `Table`: spread into a secondary column's `Table.Th` and each of
 * its `Table.Td`s, so on a phone the table keeps its key columns and fits without sideways scrolling.
 */
export const wideScreensOnlyCell = { visibleFrom: "sm" } as const;
