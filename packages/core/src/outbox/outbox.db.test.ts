/**
 * Reactions that survive a crash (issue 39 item 3, docs/data-model.md "The outbox"): an event is
 * written in the same transaction as its change and delivered at least once; the handler's work is
 * done once however often the event is delivered; a type nobody subscribes to fails closed.
 * "A crash after the commit" is the `outbox:committed` race point throwing: the process ends
 * between the commit and the reaction, as a Lambda that dies there.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../tests/support/api";
import { checkLedgerAfterEach } from "../../../../tests/support/ledger";
import {
  addCard,
  addMember,
  KISI_KEY,
  type MoneyWorld,
  moneyWorld,
  subscribeMember,
} from "../../../../tests/support/money";
import type { Actor } from "../auth/actor";
import { setBusinessClock } from "../clock";
import { db } from "../db/service";
import { listOutbox as listEmails } from "../email/port";
import { newId } from "../ids";
import { runJob } from "../jobs/run";
import { clearRecentMetrics, recentMetrics } from "../metrics";
import { billingRun } from "../payment/jobs/billing-run";
import { kisiProvider, setKisiProvider } from "../providers/kisi/index";
import { holdAt, releaseRacePoints } from "../race-points";
import { resetSimulatedProviders, settleSimulatedNow } from "../simulators/simulation";
import { recordManualPayment } from "../subscription/operations/manual-payment";
import { findSubscription } from "../subscription/store";
import { deliverOutboxEvent, deliverStoredOutboxEvent, type OutboxEvent } from "./outbox";

useTestApi();
checkLedgerAfterEach();
const DAY = 86_400_000;
/** 09:00 on Tuesday 1 December 2026 in Auckland (NZDT). */
const START = new Date("2026-11-30T20:00:00.000Z");
let world: MoneyWorld;

beforeAll(async () => {
  world = await moneyWorld({ name: "Outbox Gyms" });
});

beforeEach(async () => {
  resetSimulatedProviders();
  await setBusinessClock(START);
});

afterEach(() => {
  releaseRacePoints();
  setKisiProvider(undefined);
});

/** The process dies right after the next commit of an event of `type`, before its reaction. */
function crashAfterCommit(type: OutboxEvent["type"]) {
  holdAt(
    "outbox:committed",
    async () => {
      throw new Error("simulated crash after the commit");
    },
    type,
  );
}

/** The outbox's items of this world's events (whatever their shard). */
async function pending(type: OutboxEvent["type"]) {
  const items: OutboxEvent[] = [];
  for (let shard = 0; shard < 8; shard++) {
    const { data } = await db().entities.outboxEvent.query.primary({ shard }).go({ pages: "all" });
    items.push(
      ...(data as OutboxEvent[]).filter(
        (e) =>
          e.type === type &&
          (e.payload as { organisation_id: string }).organisation_id === world.organisation_id,
      ),
    );
  }
  return items;
}

describe("a cancellation for non-payment revokes door access through the outbox", () => {
  it("a crash after the cancellation commits: the drain revokes access, and redelivery does not revoke it again", async () => {
    const user = await addMember(world, "Cora Crash");
    await addCard(world, user, "4000000000009995");
    const { subscription } = await subscribeMember(world, user);
    const revoked: string[] = [];
    const simulated = kisiProvider();
    setKisiProvider({
      ...simulated,
      async revokeMemberAccess(key, input) {
        expect(key).toBe(KISI_KEY);
        revoked.push(input.external_id);
      },
    });
    await billingRun(START);
    await settleSimulatedNow();
    await setBusinessClock(new Date(START.getTime() + 14 * DAY));

    crashAfterCommit("cancelled_for_non_payment");
    await runJob("grace-expiry").catch(() => undefined);
    // The cancellation committed with its event; the reaction did not happen.
    const sub = await findSubscription(world.organisation_id, subscription.subscription_id);
    expect(sub?.cancellation_reasons).toEqual(["failed_payments"]);
    expect(revoked).toEqual([]);
    const [event] = await pending("cancelled_for_non_payment");
    expect(event.payload).toMatchObject({
      user_id: user.user_id,
      subscription_id: subscription.subscription_id,
    });

    // The drain (the `outbox` job; the stream in AWS) delivers it.
    expect((await runJob("outbox")).summary.delivered).toBeGreaterThanOrEqual(1);
    expect(revoked).toEqual([user.user_id]);
    expect(await pending("cancelled_for_non_payment")).toEqual([]);

    // Delivered again (a stream record redelivered, a second drain): nothing more happens.
    expect(await deliverOutboxEvent(event)).toBe("gone");
    expect(await deliverStoredOutboxEvent(event)).toBe("gone");
    await runJob("outbox");
    expect(revoked).toEqual([user.user_id]);
  });

  it("without a crash the reaction is done before the job ends, and nothing is left in the outbox", async () => {
    const user = await addMember(world, "Nora Normal");
    await addCard(world, user, "4000000000009995");
    await subscribeMember(world, user);
    const revoked: string[] = [];
    setKisiProvider({
      ...kisiProvider(),
      async revokeMemberAccess(_key, input) {
        revoked.push(input.external_id);
      },
    });
    await billingRun(START);
    await settleSimulatedNow();
    await setBusinessClock(new Date(START.getTime() + 14 * DAY));
    await runJob("grace-expiry");
    expect(revoked).toEqual([user.user_id]);
    expect(await pending("cancelled_for_non_payment")).toEqual([]);
  });
});

describe("a payment paid at the desk gets its receipt through the outbox", () => {
  const admin = (): Actor => ({
    userId: "test-admin",
    sessionId: "test",
    organisationId: world.organisation_id,
    gymId: world.gym_id,
    orgRole: "admin",
    gymRoles: [],
    memberGymIds: [],
    isStaff: true,
    gyms: [{ gym_id: world.gym_id, name: world.gym_name }],
    gymIds: [world.gym_id],
  });

  it("a crash after the manual payment commits: the drain issues and emails the receipt once", async () => {
    const user = await addMember(world, "Desi Desk");
    await addCard(world, user, "4242424242424242");
    const { subscription } = await subscribeMember(world, user);
    crashAfterCommit("paid_at_desk");
    await expect(
      recordManualPayment(admin(), subscription.subscription_id, { amount: 2500, payment_method: "cash" }),
    ).rejects.toThrow("simulated crash");
    const [event] = await pending("paid_at_desk");
    const paymentId = (event.payload as { payment_id: string }).payment_id;
    const receipt = () =>
      db().entities.receipt.get({ organisation_id: world.organisation_id, payment_id: paymentId }).go();
    expect((await receipt()).data).toBeNull();

    await runJob("outbox");
    expect((await receipt()).data).not.toBeNull();
    const receipts = async () =>
      (await listEmails(100, user.email)).filter((mail) => /receipt|tax invoice/i.test(mail.subject));
    expect(await receipts()).toHaveLength(1);

    expect(await deliverOutboxEvent(event)).toBe("gone");
    await runJob("outbox");
    expect(await receipts()).toHaveLength(1);
  });
});

describe("an event nobody subscribes to", () => {
  it("fails closed: not delivered, counted (OutboxUndelivered, alarmed), kept for a process that can deliver it", async () => {
    const event_id = newId();
    const key = { shard: 0, event_id };
    await db()
      .entities.outboxEvent.create({
        ...key,
        type: "no_such_event",
        payload: { organisation_id: world.organisation_id },
      })
      .go();
    clearRecentMetrics();
    const { summary } = await runJob("outbox");
    expect(summary.undelivered).toBeGreaterThanOrEqual(1);
    expect(
      recentMetrics().some(
        ({ emf }) =>
          emf.OutboxUndelivered === 1 && emf.type === "no_such_event" && emf.reason === "no_subscriber",
      ),
    ).toBe(true);
    expect((await db().entities.outboxEvent.get(key).go()).data).not.toBeNull();
    await expect(deliverStoredOutboxEvent(key)).rejects.toThrow(/no subscriber/);
    await db().entities.outboxEvent.delete(key).go();
  });
});
