/**
 * What the money API tests (money-ledger, money-races, communications) do around the HTTP calls
 * they test: move the business clock, run a schedule's job, settle the simulated providers, add a
 * price, make a member with a saved card, confirm a membership, and read what the simulated
 * provider was asked to take. Core is imported lazily: `useTestApi` points it at the test's table
 * before the first call.
 */
import type { JobName } from "@gym/core/jobs/schedule";
import { expect } from "vitest";
import { signIn } from "./api";
import type { HttpClient } from "./http";
import { addCard, type MoneyWorld } from "./money";

/** 09:00 in Auckland on an Auckland date (NZDT in the months these tests use). */
export const nine = (date: string) => new Date(`${date}T09:00:00+13:00`);

/** The core functions the tests drive, imported once the test API has set the table. */
export async function core() {
  const [clock, jobs, sim, db, store, types, ids] = await Promise.all([
    import("@gym/core/clock"),
    import("@gym/core/jobs/run"),
    import("@gym/core/simulators/simulation"),
    import("@gym/core/db/service"),
    import("@gym/core/subscription/store"),
    import("@gym/core/payment-type/service"),
    import("@gym/core/ids"),
  ]);
  return { ...clock, ...jobs, ...sim, ...db, ...store, ...types, ...ids };
}

/** Moves the business clock to 09:00 in Auckland on `date`. */
export async function at(date: string) {
  await (await core()).setBusinessClock(nine(date));
}

/** Settles now whatever the simulated providers were asked. */
export async function settle() {
  await (await core()).settleSimulatedNow();
}

/**
 * Runs a schedule's job and, unless `settle: false` (charges stay in flight until `settle()`),
 * settles what the simulated providers were asked. Answers the job's summary.
 */
export async function runJob(job: JobName, options: { settle?: boolean } = {}) {
  const { runJob: run } = await core();
  const result = await run(job);
  if (options.settle ?? true) await settle();
  return result.summary as Record<string, number>;
}

/** A price of the world's offering (or `offering_id`'s), written as staff would have made it. */
export async function addPrice(
  world: MoneyWorld,
  input: {
    amount: number;
    billing_frequency: "monthly" | "weekly" | "one_off";
    offering_id?: string;
    joining_fee?: number;
    term_amount?: number;
    term_unit?: "weeks" | "months" | "years";
    trial_days?: number;
    trial_amount?: number;
  },
) {
  const { db, newId } = await core();
  const price_id = newId();
  await db()
    .entities.price.create({
      organisation_id: world.organisation_id,
      price_id,
      grouping_unique_identifier: newId(),
      ...input,
      offering_id: input.offering_id ?? world.offering_id,
    })
    .go();
  return price_id;
}

let members = 0;
/**
 * A member of the world's gym, signed in on the join site's API; with a saved card when given.
 * `name` is stored as typed (tests of title-casing give it in lower case).
 */
export async function memberOf(
  world: MoneyWorld,
  apiUrl: string,
  options: { prefix: string; name?: (n: number) => string; card?: string },
) {
  const { createUser } = await import("@gym/core/user/service");
  const { putRole } = await import("@gym/core/user/roles");
  const n = ++members;
  const email = `${options.prefix}${n}-${Date.now()}@example.nz`;
  const user = await createUser({
    email,
    name: options.name?.(n) ?? `${options.prefix} member ${n}`,
    password: "demo-password",
    email_verified: true,
  });
  await putRole({
    organisation_id: world.organisation_id,
    user_id: user.user_id,
    member_gym_ids: [world.gym_id],
  });
  if (options.card) await addCard(world, user, options.card);
  return { user, email, client: await signIn(apiUrl, email) };
}

/** An organisation admin of the world, signed in on the staff API. */
export async function adminOf(world: MoneyWorld, apiUrl: string, email: string) {
  const { createUser } = await import("@gym/core/user/service");
  const { putRole } = await import("@gym/core/user/roles");
  const staff = await createUser({
    email,
    name: "Test Admin",
    password: "demo-password",
    email_verified: true,
  });
  await putRole({ organisation_id: world.organisation_id, user_id: staff.user_id, org_role: "admin" });
  return signIn(apiUrl, email);
}

export interface Joined {
  id: string;
  first_payment: { id: string; amount: number; surcharge: number };
  upcoming_payment: { id: string; amount: number; surcharge: number } | null;
}

/** The member confirms a membership (`POST /api/subscriptions`); it must be created. */
export async function join(world: MoneyWorld, client: HttpClient, priceId = world.price_id) {
  const answer = await client.post("/api/subscriptions", { price_id: priceId, gym_id: world.gym_id });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data as Joined;
}

/** What the simulated Stripe was asked to take for a subscription (`tried`) and took, in order. */
export async function charges(subscriptionId: string) {
  const { simulatedLedger } = await core();
  const mine = simulatedLedger().filter((e) => e.meta.subscription_id === subscriptionId);
  return { tried: mine.map((e) => e.amount), taken: mine.filter((e) => e.taken).map((e) => e.amount) };
}
