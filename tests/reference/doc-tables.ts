/**
 * The example tables of a document in docs/ (a `<!-- examples: name -->` marker above a Markdown
 * table), read as rows of cells by header: the reference model's tests run them, so each rule's
 * examples live once, in the document.
 */
import { readFileSync } from "node:fs";

export type Row = Record<string, string>;

/** `docTables("billing.md")("pause")`: the rows of that document's table named `pause`. */
export function docTables(file: string): (name: string) => Row[] {
  const lines = readFileSync(new URL(`../../docs/${file}`, import.meta.url), "utf8").split(/\r?\n/);
  return (name) => {
    const at = lines.findIndex((l) => l.trim() === `<!-- examples: ${name} -->`);
    if (at < 0) throw new Error(`no table ${name}`);
    const cells = (line: string) =>
      line
        .trim()
        .replace(/^\||\|$/g, "")
        .split("|")
        .map((c) => c.trim());
    const header = cells(lines[at + 1]);
    const rows: Row[] = [];
    for (let i = at + 3; i < lines.length && lines[i].trim().startsWith("|"); i++) {
      const values = cells(lines[i]);
      rows.push(Object.fromEntries(header.map((h, j) => [h, values[j] ?? ""])));
    }
    return rows;
  };
}

/** "$1,234.56" → 123456. */
export const cents = (dollars: string) => Math.round(Number(dollars.replace(/[$,]/g, "")) * 100);
