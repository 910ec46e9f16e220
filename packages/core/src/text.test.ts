import { describe, expect, it } from "vitest";
import { nzDate, nzDateTime, titleCase } from "./text";

describe("what people read: names and dates", () => {
  it("title-cases names typed in one case and keeps mixed case", () => {
    expect(titleCase("isla ngata")).toBe("Isla Ngata");
    expect(titleCase("McDonald")).toBe("McDonald");
  });

  it("writes a calendar date en-NZ, d/MM/yyyy", () => {
    expect(nzDate("2026-12-03")).toBe("3/12/2026");
    expect(nzDate("2026-12-13T10:00:00Z")).toBe("13/12/2026");
  });

  it("writes an instant as its Auckland date and time (NZDT and NZST) as d/MM/yyyy h:mm a, never an ISO instant", () => {
    expect(nzDateTime("2026-01-15T20:00:00.000Z")).toBe("16/01/2026 9:00 am");
    expect(nzDateTime("2026-07-01T00:30:00Z")).toBe("1/07/2026 12:30 pm");
    expect(nzDateTime("2026-11-26T02:17:31Z")).toBe("26/11/2026 3:17 pm");
    expect(nzDateTime(Date.UTC(2026, 0, 15, 11))).toBe("16/01/2026 12:00 am");
    expect(nzDateTime(null)).toBe("");
    expect(nzDateTime("not a date")).toBe("");
  });
});
