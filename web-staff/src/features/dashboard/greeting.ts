import { aucklandParts } from "@gym/web/format";

/** "Good morning" before noon, "Good afternoon" until 5 pm, else "Good evening" (Auckland time). */
export function greeting(now: Date = new Date()): string {
  const hour = aucklandParts(now)?.hour ?? 12;
  if (hour >= 5 && hour < 12) return "Good morning";
  if (hour >= 12 && hour < 17) return "Good afternoon";
  return "Good evening";
}

/** The first name of a title-cased full name. */
export function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? name;
}
