/**
 * Ids and keys of payments that must come out the same however often they are computed.
 *
 * A scheduled payment's id is a ULID whose time part is the start of its due day (Pacific/
 * Auckland) and whose random part is a hash of (subscription, charge index). Creating "the next
 * upcoming payment" is therefore a conditional Put of a known key: two billing runs at once, or a
 * run after a crash, create it once. Lists sorted by id are sorted by due date.
 *
 * One rule for every payment's id: its time part is the start of its due day, the business day it
 * is for (never the real clock: under a moved business clock a desk payment dated by the real time
 * fell outside its day's lists and journals, issue 37). Payments made once (a desk payment, a
 * break fee) take `paymentIdOn`, random after the time part.
 */
import { createHash } from "node:crypto";
import { type CivilDate, startOfAucklandDay } from "../billing/calendar";
import { newId } from "../ids";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

function encodeTime(ms: number): string {
  let out = "";
  let value = Math.max(0, Math.floor(ms));
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[value % 32] + out;
    value = Math.floor(value / 32);
  }
  return out;
}

function encodeHash(seed: string): string {
  const bytes = createHash("sha256").update(seed).digest();
  let bits = 0n;
  for (let i = 0; i < 10; i++) bits = (bits << 8n) | BigInt(bytes[i]);
  let out = "";
  for (let i = 0; i < 16; i++) {
    out = CROCKFORD[Number(bits & 31n)] + out;
    bits >>= 5n;
  }
  return out;
}

/** A ULID-shaped id: time from `at`, the rest from `seed`. Deterministic. */
export function deterministicUlid(at: Date, seed: string): string {
  return encodeTime(at.getTime()) + encodeHash(seed);
}

/** A new payment's id due on `dueOn`: sorted within that day, unique by its random part. */
export function paymentIdOn(dueOn: CivilDate): string {
  return deterministicUlid(startOfAucklandDay(dueOn), "").slice(0, 10) + newId().slice(10);
}

/** The id of a subscription's scheduled charge `index` (−1 is a pro-rata first payment). */
export function scheduledPaymentId(subscriptionId: string, index: number, dueOn: CivilDate): string {
  return deterministicUlid(startOfAucklandDay(dueOn), `${subscriptionId}#charge#${index}`);
}

/** The id of a subscription's `attempt`-th retry of its balance (a double job run makes it once). */
export function retryPaymentId(subscriptionId: string, attempt: string, on: CivilDate): string {
  return deterministicUlid(startOfAucklandDay(on), `${subscriptionId}#retry#${attempt}`);
}

/** The key every provider call for this payment carries (Stripe idempotencyKey, Akahu Idempotency-Key). */
export function idempotencyKeyOf(paymentId: string): string {
  return `payment-${paymentId}`;
}
