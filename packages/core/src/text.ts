/** "mary-jane o'neil" → "Mary-Jane O'Neil": names are shown title-cased. */
export function titleCase(text: string): string {
  return text
    .toLowerCase()
    .replace(/(^|[\s\-'’])(\p{L})/gu, (_, sep: string, letter: string) => sep + letter.toUpperCase());
}
