import { describe, expect, it } from "vitest";
import {
  formatDate,
  formatDateTime,
  formatDayMonth,
  formatLongDate,
  formatMoney,
  formatPause,
  formatTime,
  titleCase,
} from ".";

describe("formatting in Pacific/Auckland, en-NZ", () => {
  it("runs with the machine in another zone", () => {
    // The suite is meant to pass whatever TZ the machine has (CI is UTC).
    expect(typeof Intl.DateTimeFormat().resolvedOptions().timeZone).toBe("string");
  });

  it("shows an instant in New Zealand daylight time", () => {
    expect(formatDateTime("2026-01-15T20:00:00Z")).toBe("16/01/2026 9:00 am");
    expect(formatDate("2026-01-15T20:00:00Z")).toBe("16/01/2026");
    expect(formatTime("2026-01-15T20:00:00Z")).toBe("9:00 am");
    expect(formatLongDate("2026-01-15T20:00:00Z")).toBe("16 January 2026");
  });

  it("shows an instant in New Zealand standard time (winter, +12)", () => {
    expect(formatDateTime("2026-07-01T00:30:00Z")).toBe("1/07/2026 12:30 pm");
    expect(formatTime(new Date("2026-07-01T11:45:00Z"))).toBe("11:45 pm");
  });

  it("crosses midnight and the DST change correctly", () => {
    // NZ daylight time ends 5 April 2026 at 03:00 NZDT (14:00 UTC on the 4th).
    expect(formatDateTime("2026-04-04T13:59:00Z")).toBe("5/04/2026 2:59 am");
    expect(formatDateTime("2026-04-04T14:00:00Z")).toBe("5/04/2026 2:00 am");
    expect(formatDateTime("2026-01-15T11:00:00Z")).toBe("16/01/2026 12:00 am");
  });

  it("keeps date-only values on their date", () => {
    expect(formatDate("1990-03-09")).toBe("9/03/1990");
    expect(formatLongDate("1990-03-09")).toBe("9 March 1990");
  });

  it("writes a chart's day as day-first d/MM, never month-first", () => {
    expect(formatDayMonth("2026-09-28")).toBe("28/09");
    expect(formatDayMonth("2026-10-05")).toBe("5/10");
    expect(formatDayMonth("2026-01-15T20:00:00Z")).toBe("16/01");
  });

  it("shows a pause as first day – last day, back on …", () => {
    const pause = { pause_start_at: "2026-12-10", pause_last_day: "2026-12-16", pause_end_at: "2026-12-17" };
    expect(formatPause(pause)).toBe("10/12/2026 – 16/12/2026, back on 17/12/2026");
    expect(formatPause({ ...pause, pause_last_day: null })).toBe(
      "10/12/2026 – 16/12/2026, back on 17/12/2026",
    );
    expect(formatPause({ pause_start_at: "2026-12-10", pause_last_day: null, pause_end_at: null })).toBe(
      "From 10/12/2026",
    );
    expect(formatPause({ pause_start_at: null, pause_last_day: null, pause_end_at: null })).toBe("");
  });

  it("formats wall-clock hours as h:mm a", () => {
    expect(formatTime("06:00")).toBe("6:00 am");
    expect(formatTime("18:30:00")).toBe("6:30 pm");
    expect(formatTime("00:15")).toBe("12:15 am");
    expect(formatTime("12:00")).toBe("12:00 pm");
  });

  it("returns an empty string for missing or invalid values", () => {
    expect(formatDate(null)).toBe("");
    expect(formatDateTime(undefined)).toBe("");
    expect(formatTime("not a date")).toBe("");
    expect(formatMoney(null)).toBe("");
  });

  it("formats cents as NZ dollars", () => {
    expect(formatMoney(1250)).toBe("$12.50");
    expect(formatMoney(123456)).toBe("$1,234.56");
    expect(formatMoney(0)).toBe("$0.00");
    expect(formatMoney(-500)).toBe("-$5.00");
  });

  it("title-cases names", () => {
    expect(titleCase("jane o'neil-smith")).toBe("Jane O'Neil-Smith");
    expect(titleCase("  JOHN   SMITH ")).toBe("John Smith");
    expect(titleCase("Ana McDonald")).toBe("Ana McDonald");
    expect(titleCase("tāne mahuta")).toBe("Tāne Mahuta");
    expect(titleCase(null)).toBe("");
  });
});
