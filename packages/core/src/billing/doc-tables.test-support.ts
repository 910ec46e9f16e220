/**
 * The worked-example tables of the docs (docs/billing.md, docs/offers.md): each table preceded by
 * `<!-- examples: NAME -->` is parsed into rows keyed by header text, each row a test.
 */

export type Row = Record<string, string>;

/** All marked tables: name -> rows keyed by header text. */
export function parseExampleTables(markdown: string): Map<string, Row[]> {
  const lines = markdown.split(/\r?\n/);
  const tables = new Map<string, Row[]>();
  for (let i = 0; i < lines.length; i++) {
    const marker = /^<!--\s*examples:\s*([\w-]+)\s*-->\s*$/.exec(lines[i].trim());
    if (!marker) continue;
    const name = marker[1];
    if (tables.has(name)) throw new Error(`Duplicate example table ${name}`);
    let j = i + 1;
    while (j < lines.length && lines[j].trim() === "") j++;
    const cells = (line: string) =>
      line
        .trim()
        .replace(/^\|/, "")
        .replace(/\|$/, "")
        .split("|")
        .map((c) => c.trim().replace(/^`(.*)`$/, "$1"));
    const header = cells(lines[j]);
    if (!/^\|[\s|:-]+\|$/.test(lines[j + 1]?.trim() ?? "")) throw new Error(`Table ${name} has no separator`);
    const rows: Row[] = [];
    for (j += 2; j < lines.length && lines[j].trim().startsWith("|"); j++) {
      const values = cells(lines[j]);
      if (values.length !== header.length)
        throw new Error(`Table ${name}: row has wrong cell count: ${lines[j]}`);
      rows.push(Object.fromEntries(header.map((h, k) => [h, values[k]])));
    }
    tables.set(name, rows);
  }
  return tables;
}

/** "$1,234.50" / "-$5.00" -> cents, exactly. */
export function cents(text: string): number {
  const m = /^(-?)\$(\d{1,3}(?:,\d{3})*)\.(\d{2})$/.exec(text);
  if (!m) throw new Error(`Not a money cell: ${text}`);
  const value = Number(m[2].replaceAll(",", "")) * 100 + Number(m[3]);
  return m[1] ? -value : value;
}
