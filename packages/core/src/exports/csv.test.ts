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

describe("csvRows amounts", () => {
  it("writes a number cell as dollars from cents, a credit with its minus sign and no quote", async () => {
    expect(await csvRows([["-2+3", -1234, 5, 100_000]])).toBe("'-2+3,-12.34,0.05,1000.00\n");
  });
});
