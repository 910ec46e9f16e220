/**
 * The one CSV writer of the exports (members, payments, visits; docs/exports.md "The files").
 * csv-stringify quotes, and with `escape_formulas` neutralises a cell a spreadsheet would run as a
 * formula (OWASP "CSV Injection"): text starting with `=`, `+`, `-`, `@`, a tab or a carriage
 * return (and their full-width forms) is written with a leading single quote, so
 * `=HYPERLINK("http://x","y")` opens as the text `'=HYPERLINK("http://x","y")`, never a link.
 * Every cell is text the exports made (names, emails, dates, amounts as "12.34").
 */

/** 1234 → "12.34", -1234 → "-12.34" (integer arithmetic, no floating point). */
export function centsAsDollars(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? "-" : ""}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/**
 * Rows of cells as CSV lines (each ending in a newline), formula-safe. A number cell is integer
 * cents, written as dollars ("-12.34"): a number is never text a spreadsheet runs, so its minus sign
 * stays (the journals' credits are negative; docs/accounting.md). csv-stringify is imported on the
 * first export, not at the API's cold start (docs/architecture.md, "Lambda bundles").
 */
export async function csvRows(rows: readonly (readonly (string | number)[])[]): Promise<string> {
  const { stringify } = await import("csv-stringify/sync");
  return stringify(rows as (string | number)[][], {
    escape_formulas: true,
    cast: { number: (cents: number) => centsAsDollars(cents) },
  });
}
