/**
 * Race points: named places in a money call between what it read and what it writes, where a
 * test can hold the call while another one runs to the end (tests/support/races.ts). DynamoDB
 * Local answers one request at a time, so two calls fired together rarely interleave by luck; a
 * race point makes the bad interleaving happen every time. In production nothing is registered:
 * passing a point is one Map lookup.
 */
export type RacePoint =
  /**
   * A change of a subscription's facts (a desk payment, a cancellation, a pause…: lifecycle.ts
   * `commitFacts`) read the subscription and re-planned its upcoming payment, and has not written yet.
   */
  | "facts:read"
  /** A retry of the balance (the retry job, or a switch of card) read the debt, and has not written yet. */
  | "retry:read"
  /** Mark received read the transfer, its subscription and ledger, and has not written yet. */
  | "received:read"
  /** A price edit read the price (its members counter), and has not written yet. */
  | "price-edit:read"
  /** A new subscription read its price, and has not written yet. */
  | "subscribe:read"
  /** The billing run read a due payment and its subscription, and has not claimed it yet. */
  | "claim:read"
  /**
   * A change committed with its outbox events and has not delivered them yet (outbox/outbox.ts,
   * subject the event's type): a test that throws here is a Lambda that died after the commit.
   */
  | "outbox:committed";

const held = new Map<RacePoint, { subject?: string; meanwhile: () => Promise<void> }>();

/**
 * Tests: the next call that passes `point` (for `subject`, a subscription's or price's id, when
 * given) waits for `meanwhile` (once), then goes on.
 */
export function holdAt(point: RacePoint, meanwhile: () => Promise<void>, subject?: string): void {
  held.set(point, { subject, meanwhile });
}

/** Tests: forget every hold not yet used. */
export function releaseRacePoints(): void {
  held.clear();
}

/** A call passes a race point for a subject (a no-op unless a test holds it). */
export async function racePoint(point: RacePoint, subject?: string): Promise<void> {
  const hold = held.get(point);
  if (!hold || (hold.subject !== undefined && hold.subject !== subject)) return;
  held.delete(point);
  await hold.meanwhile();
}
