/** "mary-jane o'neil" → "Mary-Jane O'Neil": names are shown title-cased. */
export function titleCase(text: string): string {
  return text
    .toLowerCase()
    .replace(/(^|[\s\-'’])(\p{L})/gu, (_, sep: string, letter: string) => sep + letter.toUpperCase());
}

/** A calendar date ("2026-12-15", or an instant's first ten characters) as en-NZ "15/12/2026". */
export function nzDate(date: string): string {
  const [y, m, d] = date.slice(0, 10).split("-");
  return `${d}/${m}/${y}`;
}
