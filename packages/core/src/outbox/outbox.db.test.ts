/**
 * Reactions that survive a crash (issue 39 item 3, docs/data-model.md "The outbox"): an event is
 * written in the same transaction as its change and delivered at least once; the handler's work is
 * done once however often the event is delivered; a type nobody subscribes to fails closed.
 * "A crash after the commit" is the `outbox:committed` race point throwing: the process ends
 * between the commit and the reaction, as a Lambda that dies there. Its event's item was written
 * leased to it (its writer delivers inline), so the drain takes it once that lease has expired
 * (`drainAfterLease`).
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { useTestApi } from "../../../../tests/support/api";
import { checkLedgerAfterEach } from "../../../../tests/support/ledger";
import {
  addBankAccount,
  addCard,
  addMember,
  KISI_KEY,
  type MoneyWorld,
  moneyWorld,
  subscribeMember,
  worldAdmin,
} from "../../../../tests/support/money";
import type { Actor } from "../auth/actor";
import { setBusinessClock } from "../clock";
import { dynamo } from "../db/client";
import { db } from "../db/service";
import { emailSender, listOutbox as listEmails } from "../email/port";
import { newId } from "../ids";
import { runJob } from "../jobs/run";
import { clearRecentMetrics, recentMetrics } from "../metrics";
import { putDestinationAccount } from "../payment/destination-account";
import { billingRun } from "../payment/jobs/billing-run";
import { kisiProvider, setKisiProvider } from "../providers/kisi/index";
import { holdAt, releaseRacePoints } from "../race-points";
import { resetSimulatedProviders, settleSimulatedNow } from "../simulators/simulation";
import { recordManualPayment } from "../subscription/operations/manual-payment";
import { createSubscription } from "../subscription/service";
import { findSubscription } from "../subscription/store";
import { putRole } from "../user/roles";
import { createUser } from "../user/service";
import {
  deliverOutboxEvent,
  deliverStoredOutboxEvent,
  drainOutbox,
  LEASE_MS,
  type OutboxEvent,
  settledBeforeAnswer,
} from "./outbox";

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

/**
 * The drain (the `outbox` job) once the lease its writer's commit wrote has expired: a writer that
 * died after its commit. Leases are real time, so the drain is given a later instant.
 */
const drainAfterLease = () => drainOutbox(new Date(Date.now() + 2 * LEASE_MS));

type StoredEvent = OutboxEvent & { lease_until?: string; attempts?: number };

/** The outbox's items of this world's events (whatever their shard). */
async function pending(type: OutboxEvent["type"]) {
  const items: StoredEvent[] = [];
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
    expect((await drainAfterLease()).delivered).toBeGreaterThanOrEqual(1);
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

describe("a failed payment: the activity through the outbox", () => {
  it("a crash after the failure commits: the drain records the failed payment once", async () => {
    const user = await addMember(world, "Fay Failed");
    await addCard(world, user, "4000000000009995");
    await subscribeMember(world, user);
    crashAfterCommit("payment_outcome");
    await billingRun(START).catch(() => undefined);
    await settleSimulatedNow().catch(() => undefined);
    const events = (await pending("payment_outcome")).filter(
      (e) => (e.payload as { user_id: string }).user_id === user.user_id,
    );
    expect(events).toHaveLength(1);
    expect(events[0].payload).toMatchObject({ outcome: "failed" });
    expect(await activities(user, "payment_failed")).toEqual([]);

    await drainAfterLease();
    expect(await activities(user, "payment_failed")).toHaveLength(1);
    await redeliver(events[0]);
    expect(await activities(user, "payment_failed")).toHaveLength(1);
  });
});

describe("a payment paid at the desk gets its receipt through the outbox", () => {
  const admin = (): Actor => worldAdmin(world, "test-admin");

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

    await drainAfterLease();
    expect((await receipt()).data).not.toBeNull();
    const receipts = async () =>
      (await listEmails(100, user.email)).filter((mail) => /receipt|tax invoice/i.test(mail.subject));
    expect(await receipts()).toHaveLength(1);

    expect(await deliverOutboxEvent(event)).toBe("gone");
    await runJob("outbox");
    expect(await receipts()).toHaveLength(1);
  });
});

describe("a payment paid by the provider: its receipt emailed and door access through the outbox", () => {
  /**
   * A member whose membership starts in two days (upcoming until its first payment is paid, which
   * gives standing), and the process dying right after that payment's settlement commits.
   */
  async function paidThenCrashed(name: string) {
    const user = await addMember(world, name);
    await addCard(world, user, "4242424242424242");
    const { subscription } = await subscribeMember(world, user, { start_date: "2026-12-03" });
    const granted: string[] = [];
    const simulated = kisiProvider();
    setKisiProvider({
      ...simulated,
      async ensureMemberAccess(key, input) {
        granted.push(input.external_id);
        return simulated.ensureMemberAccess(key, input);
      },
    });
    const startDay = new Date(START.getTime() + 2 * DAY);
    await setBusinessClock(startDay);
    crashAfterCommit("payment_paid");
    await billingRun(startDay).catch(() => undefined);
    await settleSimulatedNow().catch(() => undefined);
    const [event] = (await pending("payment_paid")).filter(
      (e) => (e.payload as { user_id: string }).user_id === user.user_id,
    );
    const receipts = async () =>
      (await listEmails(100, user.email)).filter((mail) => /receipt|tax invoice/i.test(mail.subject));
    return { user, subscription, granted, event, receipts };
  }

  it("a crash after the settlement commits: the drain emails the receipt once and syncs door access", async () => {
    const { user, subscription, granted, event, receipts } = await paidThenCrashed("Pita Paid");
    // The settlement committed with its receipt and its event; no email, no door sync yet.
    expect(event?.payload).toMatchObject({ user_id: user.user_id, standing_changed: true });
    const { payment_id } = event.payload as { payment_id: string };
    const { data: receipt } = await db()
      .entities.receipt.get({ organisation_id: world.organisation_id, payment_id })
      .go();
    expect(receipt).not.toBeNull();
    const sub = await findSubscription(world.organisation_id, subscription.subscription_id);
    expect(sub?.upcoming_state).toBeFalsy();
    expect(await receipts()).toEqual([]);
    expect(granted).toEqual([]);

    await drainAfterLease();
    expect(await receipts()).toHaveLength(1);
    expect(granted).toEqual([user.user_id]);

    // Redelivered (a stream record again, a second drain): no second email.
    await redeliver(event);
    expect(await receipts()).toHaveLength(1);
  });

  it("a receipt email that fails to send is not claimed: the next delivery sends it, once", async () => {
    const { event, receipts } = await paidThenCrashed("Sina Send");
    const { payment_id } = event.payload as { payment_id: string };
    const sender = emailSender();
    const send = sender.send;
    let refused = 0;
    const spy = vi.spyOn(sender, "send").mockImplementation(async (email) => {
      if (/receipt|tax invoice/i.test(email.subject) && refused === 0) {
        refused++;
        throw new Error("simulated email service down");
      }
      return send(email);
    });
    // The writer's lease from its commit has expired (it died): a delivery takes the event over.
    const later = Date.now() + 2 * LEASE_MS;
    try {
      await expect(deliverOutboxEvent(event, new Date(later))).rejects.toThrow("email service down");
    } finally {
      spy.mockRestore();
    }
    expect(await receipts()).toEqual([]);
    const { data: receipt } = await db()
      .entities.receipt.get({ organisation_id: world.organisation_id, payment_id })
      .go();
    expect(receipt?.emailed_at).toBeUndefined();

    // The item stayed, leased by that delivery; once its lease has expired it is delivered again.
    expect(await deliverOutboxEvent(event, new Date(later))).toBe("busy");
    expect(await deliverOutboxEvent(event, new Date(later + 2 * LEASE_MS))).toBe("delivered");
    expect(await receipts()).toHaveLength(1);
    await redeliver(event);
    expect(await receipts()).toHaveLength(1);
  });
});

/** The member's activity entries of one kind (each outbox reaction writes its entry once). */
async function activities(user: { user_id: string }, kind: string) {
  const { data } = await db()
    .entities.memberActivity.query.primary({ organisation_id: world.organisation_id, user_id: user.user_id })
    .go({ pages: "all" });
  return data.filter((a) => a.kind === kind);
}

/** Delivered again after the drain (a stream record redelivered, a second drain): changes nothing. */
async function redeliver(event: OutboxEvent) {
  expect(await deliverOutboxEvent(event)).toBe("gone");
  expect(await deliverStoredOutboxEvent(event)).toBe("gone");
  await runJob("outbox");
}

const staffAdmin = (): Actor => worldAdmin(world, "test-admin");

describe("a subscription created: the member's latest subscription and activity through the outbox", () => {
  it("a crash after the subscription commits: the drain marks it and records the activity once", async () => {
    const user = await addMember(world, "Sami Subscribed");
    await addCard(world, user, "4242424242424242");
    crashAfterCommit("subscribed");
    await expect(subscribeMember(world, user)).rejects.toThrow("simulated crash");
    const [event] = await pending("subscribed");
    const { subscription_id } = event.payload as { subscription_id: string };
    expect(await findSubscription(world.organisation_id, subscription_id)).not.toBeNull();
    expect(await activities(user, "subscription_created")).toEqual([]);

    await drainAfterLease();
    expect(await activities(user, "subscription_created")).toHaveLength(1);
    const { data: member } = await db()
      .entities.member.get({ organisation_id: world.organisation_id, user_id: user.user_id })
      .go();
    expect(member?.latest_subscription_id).toBe(subscription_id);

    await redeliver(event);
    expect(await activities(user, "subscription_created")).toHaveLength(1);
  });
});

describe("a lifecycle change: the activity through the outbox", () => {
  it("a crash after a manual payment commits: the drain records the lifecycle activity once", async () => {
    const user = await addMember(world, "Lena Lifecycle");
    await addCard(world, user, "4242424242424242");
    const { subscription } = await subscribeMember(world, user);
    crashAfterCommit("lifecycle_changed");
    await expect(
      recordManualPayment(staffAdmin(), subscription.subscription_id, {
        amount: 1000,
        payment_method: "cash",
      }),
    ).rejects.toThrow("simulated crash");
    const [event] = await pending("lifecycle_changed");
    expect(event.payload).toMatchObject({ user_id: user.user_id, action: "manual_payment" });
    expect(await activities(user, "subscription_manual_payment")).toEqual([]);

    await drainAfterLease();
    expect(await activities(user, "subscription_manual_payment")).toHaveLength(1);
    await redeliver(event);
    expect(await activities(user, "subscription_manual_payment")).toHaveLength(1);
  });
});

/** A new person given a member role, the process ending right after the role's commit. */
async function roleWrittenThenCrash(name: string) {
  const user = await createUser({ email: `${newId().toLowerCase()}@example.nz`, name });
  crashAfterCommit("role_written");
  await expect(
    putRole({
      organisation_id: world.organisation_id,
      user_id: user.user_id,
      member_gym_ids: [world.gym_id],
    }),
  ).rejects.toThrow("simulated crash");
  return user;
}

describe("a role written: the member search through the outbox", () => {
  it("a crash after the role commits: the drain indexes the member once", async () => {
    const user = await roleWrittenThenCrash("Rua Role");
    const member = async () =>
      (await db().entities.member.get({ organisation_id: world.organisation_id, user_id: user.user_id }).go())
        .data;
    expect(await member()).toBeNull();
    const [event] = (await pending("role_written")).filter(
      (e) => (e.payload as { user_id: string }).user_id === user.user_id,
    );

    await drainAfterLease();
    expect(await member()).toMatchObject({ name: "Rua Role", gym_ids: [world.gym_id] });
    await redeliver(event);
    expect(await member()).toMatchObject({ name: "Rua Role", gym_ids: [world.gym_id] });
  });
});

describe("inside a request: the delivered item is removed beside the answer", () => {
  it("the reaction is done when the change returns; the item is gone when the request answers", async () => {
    const user = await createUser({ email: `${newId().toLowerCase()}@example.nz`, name: "Rina Request" });
    const mine = async () =>
      (await pending("role_written")).filter(
        (e) => (e.payload as { user_id: string }).user_id === user.user_id,
      );
    const member = async () =>
      (await db().entities.member.get({ organisation_id: world.organisation_id, user_id: user.user_id }).go())
        .data;
    await settledBeforeAnswer(async () => {
      await putRole({
        organisation_id: world.organisation_id,
        user_id: user.user_id,
        member_gym_ids: [world.gym_id],
      });
      // Handled before the change returned; its item's delete goes beside the rest of the request.
      expect(await member()).toMatchObject({ name: "Rina Request" });
    });
    expect(await mine()).toEqual([]);
  });
});

/** The requests that name an outbox item (its transaction, a lease, a read, a delete) while `work` runs. */
async function outboxRequests(work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const name = `outboxRequests-${newId()}`;
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      if (JSON.stringify(args.input).includes("outbox_event"))
        sent.push((context as { commandName?: string }).commandName ?? "unknown");
      return next(args);
    },
    { step: "initialize", name },
  );
  try {
    await work();
  } finally {
    dynamo().middlewareStack.remove(name);
  }
  return sent;
}

describe("an event its writer delivers inline is written leased to the writer", () => {
  const member = async (user: { user_id: string }) =>
    (await db().entities.member.get({ organisation_id: world.organisation_id, user_id: user.user_id }).go())
      .data;
  const mine = async (user: { user_id: string }) =>
    (await pending("role_written")).filter(
      (e) => (e.payload as { user_id: string }).user_id === user.user_id,
    );

  it("the inline delivery takes no lease: its item costs the transaction and the delete, one request fewer", async () => {
    const user = await createUser({ email: `${newId().toLowerCase()}@example.nz`, name: "Lisa Leased" });
    const sent = await outboxRequests(() =>
      putRole({
        organisation_id: world.organisation_id,
        user_id: user.user_id,
        member_gym_ids: [world.gym_id],
      }),
    );
    // Before: the transaction, the lease's UpdateItem, then the handler, then the delete.
    expect(sent).toEqual(["TransactWriteItemsCommand", "DeleteItemCommand"]);
    expect(await member(user)).toMatchObject({ name: "Lisa Leased", gym_ids: [world.gym_id] });
    expect(await mine(user)).toEqual([]);
  });

  it("a crash after the commit: the stream and the drain leave the item alone until its lease expires, then the drain delivers it once", async () => {
    const before = Date.now();
    const user = await roleWrittenThenCrash("Kiri Kept");
    const [item] = await mine(user);
    // Leased to the writer from its commit, for a lease's length of real time: its first delivery.
    expect(item.attempts).toBe(1);
    const leaseEnds = Date.parse(item.lease_until ?? "");
    expect(leaseEnds).toBeGreaterThanOrEqual(before + LEASE_MS);
    expect(leaseEnds).toBeLessThanOrEqual(Date.now() + LEASE_MS);

    // While the lease holds: the stream's record and a delivery find it busy, the drain passes it.
    expect(await deliverStoredOutboxEvent(item)).toBe("busy");
    expect(await deliverOutboxEvent(item)).toBe("busy");
    expect((await runJob("outbox")).summary.busy).toBeGreaterThanOrEqual(1);
    expect((await drainOutbox(new Date(leaseEnds - 1_000))).busy).toBeGreaterThanOrEqual(1);
    expect(await member(user)).toBeNull();
    expect(await mine(user)).toHaveLength(1);

    // Once it has expired (the writer died): the drain delivers it, and only once.
    expect((await drainOutbox(new Date(leaseEnds + 1))).delivered).toBeGreaterThanOrEqual(1);
    expect(await member(user)).toMatchObject({ name: "Kiri Kept", gym_ids: [world.gym_id] });
    expect(await mine(user)).toEqual([]);
    await redeliver(item);
    expect(await member(user)).toMatchObject({ name: "Kiri Kept", gym_ids: [world.gym_id] });
  });
});

describe("a new default payment type: the subscriptions take it through the outbox", () => {
  it("a crash after the new card commits as the default: the drain moves the subscription to it", async () => {
    const user = await addMember(world, "Dana Default");
    await addCard(world, user, "4242424242424242");
    const { subscription } = await subscribeMember(world, user);
    crashAfterCommit("default_payment_type_changed");
    await expect(addCard(world, user, "5555555555554444")).rejects.toThrow("simulated crash");
    const [event] = (await pending("default_payment_type_changed")).filter(
      (e) => (e.payload as { user_id: string }).user_id === user.user_id,
    );
    const { payment_type_id } = event.payload as { payment_type_id: string };
    const paysWith = async () =>
      (await findSubscription(world.organisation_id, subscription.subscription_id))?.payment_type_id;
    expect(await paysWith()).not.toBe(payment_type_id);

    await drainAfterLease();
    expect(await paysWith()).toBe(payment_type_id);
    await redeliver(event);
    expect(await paysWith()).toBe(payment_type_id);
  });
});

describe("a gym's new destination account: its bank payers consent again through the outbox", () => {
  it("a crash after the account commits: the drain asks each bank payer once", async () => {
    const bankWorld = await moneyWorld({ name: "Outbox Bank Gyms" });
    const user = await addMember(bankWorld, "Bea Bank");
    await addBankAccount(bankWorld, user, "pays");
    const { subscription } = await subscribeMember(bankWorld, user);
    expect(subscription.payment_method).toBe("bank_account");
    const { data: gym } = await db()
      .entities.gym.get({ organisation_id: bankWorld.organisation_id, gym_id: bankWorld.gym_id })
      .go();
    const admin: Actor = {
      ...staffAdmin(),
      organisationId: bankWorld.organisation_id,
      gymId: bankWorld.gym_id,
      gyms: [{ gym_id: bankWorld.gym_id, name: bankWorld.gym_name }],
      gymIds: [bankWorld.gym_id],
    };
    crashAfterCommit("destination_account_changed");
    await expect(
      putDestinationAccount(admin, bankWorld.gym_id, gym?.destination_account?.account_id ?? "new", {
        name: "New Account Ltd",
        bank_account_number: "12-3140-0171323-51",
        bank_account_number_confirmation: "12-3140-0171323-51",
      }),
    ).rejects.toThrow("simulated crash");
    const events: OutboxEvent[] = [];
    for (let shard = 0; shard < 8; shard++) {
      const { data } = await db().entities.outboxEvent.query.primary({ shard }).go({ pages: "all" });
      events.push(
        ...(data as OutboxEvent[]).filter(
          (e) =>
            e.type === "destination_account_changed" &&
            (e.payload as { organisation_id: string }).organisation_id === bankWorld.organisation_id,
        ),
      );
    }
    expect(events).toHaveLength(1);
    const waiting = async () =>
      (await findSubscription(bankWorld.organisation_id, subscription.subscription_id))?.waiting_for_consent;
    const asked = async () =>
      (await listEmails(100, user.email)).filter((mail) => /reconnect your bank/i.test(mail.subject));
    expect(await waiting()).toBe(false);

    await drainAfterLease();
    expect(await waiting()).toBe(true);
    expect(await asked()).toHaveLength(1);
    await redeliver(events[0]);
    expect(await asked()).toHaveLength(1);
  });
});

describe("a registration confirmed: marked done and the welcome emailed through the outbox", () => {
  it("a crash after the member's subscription commits: the drain marks the registration and welcomes them once", async () => {
    const user = await addMember(world, "Rewi Registered");
    await addCard(world, user, "4242424242424242");
    const key = { organisation_id: world.organisation_id, user_id: user.user_id };
    await db()
      .entities.registration.create({ ...key, gym_id: world.gym_id, price_id: world.price_id })
      .go();
    crashAfterCommit("registration_confirmed");
    await expect(
      createSubscription({
        organisation_id: world.organisation_id,
        user_id: user.user_id,
        gym_id: world.gym_id,
        price_id: world.price_id,
        confirms_registration: true,
      }),
    ).rejects.toThrow("simulated crash");
    const [event] = (await pending("registration_confirmed")).filter(
      (e) => (e.payload as { user_id: string }).user_id === user.user_id,
    );
    const registration = async () => (await db().entities.registration.get(key).go()).data;
    const welcomes = async () =>
      (await listEmails(100, user.email)).filter((mail) => /^Welcome to/.test(mail.subject));
    expect((await registration())?.subscribed_at).toBeUndefined();
    expect(await welcomes()).toEqual([]);

    await drainAfterLease();
    expect((await registration())?.subscribed_at).toBeTruthy();
    expect(await welcomes()).toHaveLength(1);
    await redeliver(event);
    expect(await welcomes()).toHaveLength(1);
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
