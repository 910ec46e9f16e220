/**
 * Door access follows the one standing rule: a rule table applied through syncDoorAccess against
 * DynamoDB Local and the simulated Kisi (what Kisi itself answers is asserted), the door-access
 * job for changes that come with time, and idempotency.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../tests/support/api";
import {
  addCard,
  addMember,
  KISI_KEY,
  type MoneyWorld,
  moneyWorld,
  subscribeMember,
} from "../../../../tests/support/money";
import { setBusinessClock } from "../clock";
import { db } from "../db/service";
import { runJob } from "../jobs/run";
import { kisiProvider, setKisiProvider } from "../providers/kisi/index";
import { resetSimulatedProviders } from "../simulators/simulation";
import { doorAccessRecords, syncDoorAccess } from "./sync";

useTestApi();
const DAY = 86_400_000;
/** 09:00 on Tuesday 1 December 2026 in Auckland. */
const NOW = new Date("2026-11-30T20:00:00.000Z");
const iso = (offsetDays: number) => new Date(NOW.getTime() + offsetDays * DAY).toISOString();

let world: MoneyWorld;
beforeAll(async () => {
  world = await moneyWorld({ name: "Door Gyms" });
});
beforeEach(async () => {
  resetSimulatedProviders();
  setKisiProvider(undefined);
  await setBusinessClock(NOW);
});

const cleared = [
  "upcoming_state",
  "cancelled_at",
  "cancellation_effective_at",
  "undo_cancellation_until",
  "grace_period_ends_at",
  "pause_start_at",
  "pause_end_at",
  "paused_at",
] as const;

async function memberWith(facts: Record<string, string>) {
  const user = await addMember(world, "Dora Door");
  await addCard(world, user, "4242424242424242");
  const { subscription } = await subscribeMember(world, user);
  await db()
    .entities.subscription.patch({
      organisation_id: world.organisation_id,
      subscription_id: subscription.subscription_id,
    })
    .remove(cleared.filter((f) => !(f in facts)) as never)
    .go();
  if (Object.keys(facts).length)
    await db()
      .entities.subscription.patch({
        organisation_id: world.organisation_id,
        subscription_id: subscription.subscription_id,
      })
      .set(facts)
      .go();
  return user;
}

const kisiSays = async (email: string) =>
  (await kisiProvider().memberAccess(KISI_KEY, { place_id: world.place_id, email })).has_access;

describe("door standing rule table: the credential Kisi holds follows standing", () => {
  const rows: [string, Record<string, string>, boolean, string][] = [
    ["active", {}, true, "Active"],
    [
      "cancelled, inside the paid period",
      { cancelled_at: iso(-2), cancellation_effective_at: iso(5) },
      true,
      "Cancelled, inside the paid period",
    ],
    [
      "cancelled, taken effect",
      { cancelled_at: iso(-9), cancellation_effective_at: iso(-1) },
      false,
      "Cancelled",
    ],
    ["in grace, not over", { grace_period_ends_at: iso(3) }, true, "Payment failed, inside the grace period"],
    ["past grace", { grace_period_ends_at: iso(-1) }, false, "Failed payment grace period is over"],
    ["paused now", { pause_start_at: iso(-1), pause_end_at: iso(10) }, false, "Paused"],
    ["pause in the future", { pause_start_at: iso(2), pause_end_at: iso(10) }, true, "Active"],
    ["not started", { upcoming_state: "upcoming" }, false, "Membership has not started"],
    ["first payment failed", { upcoming_state: "failed" }, false, "First payment failed"],
  ];
  it.each(rows)("%s", async (_label, facts, standing, reason) => {
    const user = await memberWith(facts);
    const [record] = await syncDoorAccess(world.organisation_id, user.user_id);
    expect(record).toMatchObject({ standing, reason, status: standing ? "granted" : "revoked" });
    expect(await kisiSays(user.email)).toBe(standing);
  });
});

describe("syncing", () => {
  it("is idempotent: a second sync keeps one record and, already granted, makes no Kisi call", async () => {
    const user = await memberWith({});
    const [first] = await syncDoorAccess(world.organisation_id, user.user_id);
    const simulated = kisiProvider();
    let calls = 0;
    setKisiProvider({
      ...simulated,
      async ensureMemberAccess(key, input) {
        calls += 1;
        return simulated.ensureMemberAccess(key, input);
      },
    });
    const [second] = await syncDoorAccess(world.organisation_id, user.user_id);
    expect(calls).toBe(0);
    expect(second.credential_id).toBe(first.credential_id);
    expect(await doorAccessRecords(world.organisation_id, user.user_id)).toHaveLength(1);
  });

  it("revokes the moment standing stops and restores it when it is back (pause start and end through the job)", async () => {
    const user = await memberWith({ pause_start_at: iso(2), pause_end_at: iso(5) });
    const [record] = await syncDoorAccess(world.organisation_id, user.user_id);
    expect(record.status).toBe("granted");
    expect(record.review_at).toBe(iso(2));
    await setBusinessClock(new Date(NOW.getTime() + 2 * DAY + 60_000));
    await runJob("door-access");
    expect(await kisiSays(user.email)).toBe(false);
    expect((await doorAccessRecords(world.organisation_id, user.user_id))[0].reason).toBe("Paused");
    await setBusinessClock(new Date(NOW.getTime() + 5 * DAY + 60_000));
    await runJob("door-access");
    expect(await kisiSays(user.email)).toBe(true);
  });

  it("keeps Kisi's error on the record and throws, so the job tries again", async () => {
    const user = await memberWith({});
    const simulated = kisiProvider();
    setKisiProvider({
      ...simulated,
      async ensureMemberAccess() {
        throw new Error("Kisi is down");
      },
    });
    await expect(syncDoorAccess(world.organisation_id, user.user_id, { recreate: true })).rejects.toThrow(
      "Kisi is down",
    );
    expect((await doorAccessRecords(world.organisation_id, user.user_id))[0].last_error).toBe("Kisi is down");
    setKisiProvider(undefined);
    const [fixed] = await syncDoorAccess(world.organisation_id, user.user_id);
    expect(fixed).toMatchObject({ status: "granted" });
    expect(fixed.last_error).toBeUndefined();
  });
});
