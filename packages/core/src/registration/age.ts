/**
 * Whole years from a date of birth to a civil date (both YYYY-MM-DD). Someone born on 29
 * February turns a year older on 1 March in a common year.
 */
export function ageOn(dob: string, today: string): number {
  const [by, bm, bd] = dob.split("-").map(Number);
  const [ty, tm, td] = today.split("-").map(Number);
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}
