import type { MantineTheme } from "@mantine/core";

/**
 * Spread into a mantine-datatable column that is secondary: it is shown from the small breakpoint
 * up, so on a phone a list keeps its few key columns at full width instead of scrolling sideways
 * with badges cut short.
 */
export const wideScreensOnly = {
  visibleMediaQuery: (theme: MantineTheme) => `(min-width: ${theme.breakpoints.sm})`,
} as const;
