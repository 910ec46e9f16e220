import { describe, expect, it } from "vitest";
import {
  closesAfterOpening,
  dayName,
  formatHoursRow,
  formatWallTime,
  isWallTime,
  minutesOfDay,
  sortHours,
  summariseHours,
} from "./hours";

describe("opening hours", () => {
  it.each([
    ["00:00", "12:00 am"],
    ["00:15", "12:15 am"],
    ["06:00", "6:00 am"],
    ["09:05", "9:05 am"],
    ["11:59", "11:59 am"],
    ["12:00", "12:00 pm"],
    ["12:30", "12:30 pm"],
    ["13:00", "1:00 pm"],
    ["21:45", "9:45 pm"],
    ["23:59", "11:59 pm"],
  ])("shows %s as %s (h:mm a)", (time, shown) => {
    expect(formatWallTime(time)).toBe(shown);
  });

  it("accepts only 24-hour HH:mm", () => {
    for (const good of ["00:00", "07:30", "23:59"]) expect(isWallTime(good)).toBe(true);
    for (const bad of ["24:00", "7:30", "07:60", "7pm", "", "07:30:00", null, 730])
      expect(isWallTime(bad)).toBe(false);
    expect(() => minutesOfDay("25:00")).toThrow(RangeError);
    expect(minutesOfDay("01:30")).toBe(90);
  });

  it("numbers days 1 (Monday) to 7 (Sunday)", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(dayName)).toEqual([
      "Monday",
      "Tuesday",
      "Wednesday",
      "Thursday",
      "Friday",
      "Saturday",
      "Sunday",
    ]);
    expect(() => dayName(0)).toThrow(RangeError);
    expect(() => dayName(8)).toThrow(RangeError);
  });

  it("needs the close after the open, on the same day", () => {
    expect(closesAfterOpening("06:00", "06:01")).toBe(true);
    expect(closesAfterOpening("06:00", "06:00")).toBe(false);
    expect(closesAfterOpening("22:00", "02:00")).toBe(false);
  });

  it("sorts a week Monday first, then by opening time", () => {
    const rows = [
      { day: 7, open_at: "08:00", close_at: "12:00" },
      { day: 1, open_at: "17:00", close_at: "21:00" },
      { day: 1, open_at: "06:00", close_at: "10:00" },
    ];
    expect(sortHours(rows).map(formatHoursRow)).toEqual([
      "Monday 6:00 am – 10:00 am",
      "Monday 5:00 pm – 9:00 pm",
      "Sunday 8:00 am – 12:00 pm",
    ]);
  });

  it("summarises a week, grouping consecutive days with the same hours", () => {
    const weekdays = [1, 2, 3, 4, 5].map((day) => ({ day, open_at: "06:00", close_at: "21:00" }));
    expect(summariseHours(weekdays)).toBe("Mon–Fri 6:00 am – 9:00 pm");
    expect(
      summariseHours([
        ...weekdays,
        { day: 6, open_at: "08:00", close_at: "14:00" },
        { day: 7, open_at: "08:00", close_at: "14:00" },
      ]),
    ).toBe("Mon–Fri 6:00 am – 9:00 pm; Sat–Sun 8:00 am – 2:00 pm");
    // Not consecutive: Monday and Wednesday stay apart.
    expect(
      summariseHours([
        { day: 3, open_at: "06:00", close_at: "09:00" },
        { day: 1, open_at: "06:00", close_at: "09:00" },
      ]),
    ).toBe("Mon 6:00 am – 9:00 am; Wed 6:00 am – 9:00 am");
    // A split day lists both spans.
    expect(
      summariseHours([
        { day: 2, open_at: "17:00", close_at: "20:00" },
        { day: 2, open_at: "06:00", close_at: "09:00" },
      ]),
    ).toBe("Tue 6:00 am – 9:00 am, 5:00 pm – 8:00 pm");
    expect(summariseHours([])).toBe("");
  });
});
