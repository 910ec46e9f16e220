/**
 * The one CSV writer of the exports (members, payments, visits; docs/exports.md "The files").
 * csv-stringify quotes, and with `escape_formulas` neutralises a cell a spreadsheet would run as a
 * formula (OWASP "CSV Injection"): text starting with `=`, `+`, `-`, `@`, a tab or a carriage
 * return (and their full-width forms) is written with a leading single quote, so
 * `=HYPERLINK("http://x","y")` opens as the text `'=HYPERLINK("http://x","y")`, never a link.
 * Every cell is text the exports made (names, emails, dates, amounts as "12.34").
 */

/**
 * Rows of cells as CSV lines (each ending in a newline), formula-safe. csv-stringify is imported on
 * the first export, not at the API's cold start (docs/architecture.md, "Lambda bundles").
 */
export async function csvRows(rows: readonly (readonly string[])[]): Promise<string> {
  const { stringify } = await import("csv-stringify/sync");
  return stringify(rows as string[][], { escape_formulas: true });
}
