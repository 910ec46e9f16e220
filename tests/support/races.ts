/**
 * The race harness (issue 34, docs/billing.md "The ledger's invariants"): two money-changing calls
 * fired at the same instant, round after round, with the ledger's invariants checked after each.
 *
 * DynamoDB Local answers one request at a time, so two calls fired together interleave only by
 * luck. Every race is therefore run in three ways:
 * 1. `a` held at its race point (it has read, and not written) while `b` runs to the end;
 * 2. `b` held at its race point while `a` runs to the end;
 * 3. `together` more rounds with both fired at once (whatever the event loop makes of them).
 * The first two are the interleavings that lost money before issue 34; each happens every time.
 */

import { expect } from "vitest";
import { holdAt, type RacePoint, releaseRacePoints } from "../../packages/core/src/race-points";
import { describeBreak, newLedgerBreaks } from "./ledger";

export interface RaceCall<S, R> {
  name: string;
  /** Where the call has read what it decides on and not written yet. */
  point: RacePoint;
  /** The subscription (or price) it acts on: the hold is for this one only, not another the call meets first. */
  subject: (state: S) => string;
  call: (state: S) => Promise<R>;
}

export type RaceOrder = "a held, b first" | "b held, a first" | "together";

export interface RaceResult {
  rounds: number;
  orders: Record<RaceOrder, number>;
}

/** Runs `a` while `b` waits at its race point, or the other way round; answers both results. */
async function heldRound<S, A, B>(state: S, held: RaceCall<S, A>, other: RaceCall<S, B>) {
  let otherAnswer: { value: B } | undefined;
  holdAt(
    held.point,
    async () => {
      otherAnswer = { value: await other.call(state) };
    },
    held.subject(state),
  );
  const heldAnswer = await held.call(state);
  releaseRacePoints();
  // The held call never reached its point (it was refused before reading): the other runs after.
  if (!otherAnswer) otherAnswer = { value: await other.call(state) };
  return [heldAnswer, otherAnswer.value] as const;
}

/**
 * `together` rounds of `a` and `b` fired at once, after one round in each held order. Each round
 * starts from a fresh `setup(round)`; `check` says what must hold for the pair, and the ledger's
 * invariants must hold over the whole table.
 */
export async function race<S, A, B>(options: {
  setup: (round: number) => Promise<S>;
  a: RaceCall<S, A>;
  b: RaceCall<S, B>;
  together: number;
  check: (state: S, answers: { a: A; b: B }, order: RaceOrder) => Promise<void>;
}): Promise<RaceResult> {
  const orders: Record<RaceOrder, number> = { "a held, b first": 0, "b held, a first": 0, together: 0 };
  const plan: RaceOrder[] = [
    "a held, b first",
    "b held, a first",
    ...Array.from({ length: options.together }, () => "together" as const),
  ];
  for (const [round, order] of plan.entries()) {
    const state = await options.setup(round);
    let answers: { a: A; b: B };
    if (order === "a held, b first") {
      const [a, b] = await heldRound(state, options.a, options.b);
      answers = { a, b };
    } else if (order === "b held, a first") {
      const [b, a] = await heldRound(state, options.b, options.a);
      answers = { a, b };
    } else {
      const [a, b] = await Promise.all([options.a.call(state), options.b.call(state)]);
      answers = { a, b };
    }
    orders[order] += 1;
    const breaks = await newLedgerBreaks();
    expect(
      breaks.map(describeBreak),
      `the ledger after ${options.a.name} × ${options.b.name} (${order})`,
    ).toEqual([]);
    await options.check(state, answers, order);
  }
  return { rounds: plan.length, orders };
}
