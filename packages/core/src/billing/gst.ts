/**
 * GST on receipts (docs/billing.md "GST on receipts"): New Zealand GST is 15 %, so a GST-inclusive
 * amount holds 3/23 of itself as GST. Pure; integer cents.
 */
import { roundHalfUp } from "./money";

/** The GST included in a GST-inclusive amount: round_half_up(total × 3 / 23), in cents. */
export function gstIncluded(totalCents: number): number {
  return roundHalfUp(totalCents * 3, 23);
}

const primaryWeights = [3, 2, 7, 6, 5, 4, 3, 2];
const secondaryWeights = [7, 4, 3, 2, 5, 2, 7, 6];

/** The digits of an IRD (GST) number as typed: "123-456-789", "12 345 678" or "123456789". */
export function irdDigits(input: string): string | null {
  const digits = input.replace(/[\s-]/g, "");
  return /^\d{8,9}$/.test(digits) ? digits.padStart(9, "0") : null;
}

/**
 * Inland Revenue's check-digit rule for IRD numbers (which are also GST numbers): 8 or 9 digits
 * between 10-000-000 and 150-000-000; the first eight (padded to eight) weighted 3,2,7,6,5,4,3,2,
 * summed, remainder mod 11: 0 gives check digit 0, else 11 − remainder; 10 means weigh again with
 * 7,4,3,2,5,2,7,6, and 10 a second time means the number is not valid.
 */
export function isValidIrdNumber(input: string): boolean {
  const digits = irdDigits(input);
  if (!digits) return false;
  const value = Number(digits);
  if (value < 10_000_000 || value > 150_000_000) return false;
  const base = digits.slice(0, 8);
  const given = Number(digits[8]);
  const check = (weights: number[]) => {
    const sum = [...base].reduce((s, d, i) => s + Number(d) * weights[i], 0);
    const remainder = sum % 11;
    return remainder === 0 ? 0 : 11 - remainder;
  };
  let digit = check(primaryWeights);
  if (digit === 10) digit = check(secondaryWeights);
  return digit !== 10 && digit === given;
}

/** "049091850" → "49-091-850"; "136410132" → "136-410-132" (how IRD writes them). */
export function formatIrdNumber(input: string): string {
  const digits = irdDigits(input) ?? input;
  const trimmed = digits.replace(/^0/, "");
  return trimmed.length === 8
    ? `${trimmed.slice(0, 2)}-${trimmed.slice(2, 5)}-${trimmed.slice(5)}`
    : `${trimmed.slice(0, 3)}-${trimmed.slice(3, 6)}-${trimmed.slice(6)}`;
}
