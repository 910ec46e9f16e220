import { describe, expect, it } from "vitest";
import { csvRows } from "./csv";

describe("csvRows (OWASP CSV injection)", () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ["+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"],
    ["@SUM(1+1)", "'@SUM(1+1)"],
    ["-2+3", "'-2+3"],
    ["\t=1+1", `'\t=1+1`],
    ["\r=1+1", `"'\r=1+1"`],
    ["Aroha Ngata", "Aroha Ngata"],
    ["12.34", "12.34"],
    ["23/11/2026", "23/11/2026"],
  ])("%j is written as %s", async (cell, written) => {
    expect(await csvRows([[cell, "x"]])).toBe(`${written},x\n`);
  });
});
