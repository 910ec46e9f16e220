/**
 * Names are shown title-cased (spec): "jane o'neil-smith" → "Jane O'Neil-Smith". A name typed all
 * in one case is normalised; mixed case ("McDonald", "van der Berg") is kept as typed. The one
 * definition: the API's answers, exports and emails use it here, the sites through
 * `@gym/web/format`.
 */
export function titleCase(name: string | null | undefined): string {
  if (!name) return "";
  const trimmed = name.trim().replace(/\s+/g, " ");
  const singleCase = trimmed === trimmed.toLowerCase() || trimmed === trimmed.toUpperCase();
  const base = singleCase ? trimmed.toLowerCase() : trimmed;
  return base.replace(
    /(^|[\s\-'’(])(\p{L})/gu,
    (_match, before: string, letter: string) => before + letter.toUpperCase(),
  );
}

/** A calendar date ("2026-12-15", or an instant's first ten characters) as en-NZ "15/12/2026". */
export function nzDate(date: string): string {
  const [y, m, d] = date.slice(0, 10).split("-");
  return `${d}/${m}/${y}`;
}
