/**
 * Names are shown title-cased (spec): "jane o'neil-smith" → "Jane O'Neil-Smith". A name typed all
 * in one case is normalised; mixed case ("McDonald", "van der Berg") is kept as typed. The one
 * definition: the API's answers, exports and emails use it here, the sites through
 * `@gym/web/format`.
 */
export function titleCase(name: string | null | undefined): string {
  if (!name) return "";
  const trimmed = name.trim().replace(/\s+/g, " ");
  const singleCase = trimmed === trimmed.toLowerCase() || trimmed === trimmed.toUpperCase();
  const base = singleCase ? trimmed.toLowerCase() : trimmed;
  return base.replace(
    /(^|[\s\-'’(])(\p{L})/gu,
    (_match, before: string, letter: string) => before + letter.toUpperCase(),
  );
}

/**
 * An offering named as a membership, once: "Anytime Membership" stays as it is, "Unlimited" is
 * "Unlimited membership" (never "your Anytime Membership membership"). Emails and receipts use it.
 */
export function membershipName(offering: string): string {
  const name = offering.trim();
  return /\bmembership$/i.test(name) ? name : `${name} membership`;
}

/**
 * A calendar date ("2026-12-15", or an instant's first ten characters) the en-NZ way, d/MM/yyyy:
 * "15/12/2026", "3/12/2026". The one date pattern of the API's messages, exports and both sites.
 */
export function nzDate(date: string): string {
  const [y, m, d] = date.slice(0, 10).split("-");
  return `${Number(d)}/${m}/${y}`;
}

const aucklandClock = new Intl.DateTimeFormat("en-NZ", {
  timeZone: "Pacific/Auckland",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "numeric",
  minute: "2-digit",
  hourCycle: "h23",
});

/**
 * An instant ("2026-12-15T02:04:00.000Z", epoch ms or a Date) as its en-NZ Auckland date and time:
 * "15/12/2026 3:04 pm" (d/MM/yyyy h:mm a). Composed from `formatToParts`, so every runtime writes the same string
 * (ICU versions differ in spaces and in the case of "am"/"pm"). "" for no or an invalid instant.
 */
export function nzDateTime(instant: string | number | Date | null | undefined): string {
  if (instant === null || instant === undefined || instant === "") return "";
  const date = instant instanceof Date ? instant : new Date(instant);
  if (Number.isNaN(date.getTime())) return "";
  const parts: Record<string, string> = {};
  for (const part of aucklandClock.formatToParts(date)) parts[part.type] = part.value;
  const hour24 = Number(parts.hour) % 24;
  const hour12 = hour24 % 12 === 0 ? 12 : hour24 % 12;
  const day = nzDate(`${parts.year}-${parts.month}-${parts.day}`);
  return `${day} ${hour12}:${parts.minute} ${hour24 < 12 ? "am" : "pm"}`;
}
