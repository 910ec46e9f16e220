/**
 * The index backfill (docs/data-model.md "Indexes added for scale"): items written before an index
 * existed are found through it after one run, members stay out of the sparse staff index, and a
 * second run changes nothing.
 */

import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { useTestApi } from "../../../../tests/support/api";
import { addCard, addMember, moneyWorld, subscribeMember } from "../../../../tests/support/money";
import { config } from "../config";
import { dynamo } from "../db/client";
import { db } from "../db/service";
import { newId } from "../ids";
import { monthlyPaymentsPage } from "../payment/list";
import { paymentMonths } from "../payment/months";
import { sweepSchedules } from "../payment/schedule-check";
import { attentionKeys, monthKeys } from "../payment/store";
import { SCHEDULE_FIELDS } from "../subscription/store";
import { staffRolesOf } from "../user/roles";
import { backfillIndexKeys } from "./index-backfill";

useTestApi();

describe("backfillIndexKeys", () => {
  it("gives roles written before the staff index their keys, staff only; idempotent", async () => {
    const organisationId = newId();
    const [admin, trainer, member, gone] = [newId(), newId(), newId(), newId()];
    // As written before the index: a plain Put without its keys.
    await db()
      .entities.role.put([
        { organisation_id: organisationId, user_id: admin, org_role: "admin" },
        {
          organisation_id: organisationId,
          user_id: trainer,
          gym_roles: [{ gym_id: "g1", role: "personal_trainer" }],
          member_gym_ids: ["g1"],
        },
        { organisation_id: organisationId, user_id: member, member_gym_ids: ["g1"] },
        {
          organisation_id: organisationId,
          user_id: gone,
          org_role: "admin",
          deleted_at: "2026-01-01T00:00:00Z",
        },
      ])
      .go();
    expect(await staffRolesOf(organisationId)).toEqual([]);

    const first = await backfillIndexKeys();
    expect(first.staff_keyed).toBe(2);
    expect((await staffRolesOf(organisationId)).map((r) => r.user_id).sort()).toEqual(
      [admin, trainer].sort(),
    );

    const second = await backfillIndexKeys();
    expect(second.staff_keyed).toBe(0);
  });

  it("gives open payments written before the attention index their keys and takes them off final ones", async () => {
    const organisationId = newId();
    const base = {
      organisation_id: organisationId,
      user_id: newId(),
      gym_id: "g1",
      type: "stripe_card" as const,
      amount: 2400,
      due_on: "2026-01-05",
      member_name: "pat payer",
      member_email: "pat@example.net",
      gym_name: "Gym",
    };
    const [upcoming, awaiting, sent, staleSent] = [newId(), newId(), newId(), newId()];
    await db()
      .entities.payment.put([
        { ...base, payment_id: upcoming, status: "upcoming" },
        { ...base, payment_id: awaiting, status: "awaiting_payment" },
        { ...base, payment_id: sent, status: "sent" },
        // Made final by a write that left its keys (a claim paid by credit).
        {
          ...base,
          payment_id: staleSent,
          status: "sent",
          ...attentionKeys({ ...base, payment_id: staleSent }),
          // Keyed into the list index already: only its attention keys change.
          ...monthKeys({ ...base, payment_id: staleSent }),
        },
      ])
      .go();
    const first = await backfillIndexKeys();
    expect(first).toMatchObject({ attention_keyed: 2, attention_removed: 1 });
    const read = async (id: string) =>
      (await db().entities.payment.get({ organisation_id: organisationId, payment_id: id }).go()).data;
    expect((await read(upcoming))?.attention_key).toBe(
      attentionKeys({ ...base, payment_id: upcoming }).attention_key,
    );
    expect((await read(awaiting))?.attention_sort).toBe(`2026-01-05#${awaiting}`);
    expect((await read(sent))?.attention_key).toBeUndefined();
    expect((await read(staleSent))?.attention_key).toBeUndefined();
    const second = await backfillIndexKeys();
    expect(second).toMatchObject({ attention_keyed: 0, attention_removed: 0 });
  });

  it("gives payments written before the list index their month keys, and moves one whose due month changed", async () => {
    const organisationId = newId();
    const base = {
      organisation_id: organisationId,
      user_id: newId(),
      gym_id: "g1",
      type: "stripe_card" as const,
      status: "sent" as const,
      amount: 2400,
      member_name: "pat payer",
      member_email: "pat@example.net",
      gym_name: "Gym",
    };
    const [march, april, moved] = [newId(), newId(), newId()];
    await db()
      .entities.payment.put([
        // As written before the index: no month keys.
        { ...base, payment_id: march, due_on: "2026-03-05" },
        { ...base, payment_id: april, due_on: "2026-04-20" },
        // Keyed under its old due month (January); due in April now.
        {
          ...base,
          payment_id: moved,
          due_on: "2026-04-02",
          ...monthKeys({ ...base, payment_id: moved, due_on: "2026-01-31" }),
        },
      ])
      .go();
    // Its old month was named when it was keyed there.
    await db().entities.paymentMonth.put({ organisation_id: organisationId, month: "2026-01" }).go();
    const list = async () =>
      (await monthlyPaymentsPage({ organisationId, gymIds: null, filters: {}, perPage: 10 })).items.map(
        (p) => p.payment_id,
      );
    expect(await list()).toEqual([moved]);

    const first = await backfillIndexKeys();
    expect(first.month_keyed).toBeGreaterThanOrEqual(3);
    expect(await paymentMonths(organisationId, {}, 10)).toEqual(["2026-04", "2026-03", "2026-01"]);
    // Newest first, each once, the moved one in April only.
    expect(await list()).toEqual([april, moved, march]);
    const january = await monthlyPaymentsPage({
      organisationId,
      gymIds: null,
      filters: { from: "2026-01-01", to: "2026-01-31" },
      perPage: 10,
    });
    expect(january.items).toEqual([]);
    const second = await backfillIndexKeys();
    expect(second.month_keyed).toBe(0);
  });

  it("takes the gsi1 keys (organisation alone) off payments written before payments left that index", async () => {
    const organisationId = newId();
    const paymentId = newId();
    const record = {
      organisation_id: organisationId,
      payment_id: paymentId,
      user_id: newId(),
      gym_id: "g1",
      type: "stripe_card" as const,
      status: "sent" as const,
      amount: 2400,
      due_on: "2026-02-05",
      member_name: "pat payer",
      member_email: "pat@example.net",
      gym_name: "Gym",
      ...monthKeys({ organisation_id: organisationId, payment_id: paymentId, due_on: "2026-02-05" }),
    };
    // As written before: the item with the keys of gsi1 byOrganisation.
    const { Item } = db().entities.payment.put(record).params() as { Item: Record<string, unknown> };
    await dynamo().send(
      new PutCommand({
        TableName: config.tableName,
        Item: {
          ...Item,
          gsi1pk: `$gym#organisation_id_${organisationId}`,
          gsi1sk: `$payment_1#payment_id_${paymentId}`,
        },
      }),
    );
    const raw = async () =>
      (
        await dynamo().send(
          new GetCommand({ TableName: config.tableName, Key: { pk: Item.pk, sk: Item.sk } }),
        )
      ).Item;
    expect((await raw())?.gsi1pk).toBeDefined();

    const first = await backfillIndexKeys();
    expect(first.organisation_key_removed).toBeGreaterThanOrEqual(1);
    const after = await raw();
    expect(after?.gsi1pk).toBeUndefined();
    expect(after?.gsi1sk).toBeUndefined();
    expect(after?.gsi5pk).toBe(`${organisationId}#2026-02`);
    expect(after?.amount).toBe(2400);
    expect((await backfillIndexKeys()).organisation_key_removed).toBe(0);
  });

  it("gives live subscriptions written before the schedule index their keys, so the daily check sweeps them", async () => {
    const world = await moneyWorld({ name: "Backfill Gyms" });
    const user = await addMember(world, "Old Schedule");
    await addCard(world, user, "4242424242424242");
    const { subscription } = await subscribeMember(world, user);
    const key = { organisation_id: world.organisation_id, subscription_id: subscription.subscription_id };
    // As written before the index.
    await db()
      .entities.subscription.patch(key)
      .remove([...SCHEDULE_FIELDS])
      .go();
    const swept = async () => (await sweepSchedules(new Date())).swept;
    const before = await swept();

    const first = await backfillIndexKeys();
    expect(first.schedule_keyed).toBe(1);
    expect(await swept()).toBe(before + 1);
    expect((await backfillIndexKeys()).schedule_keyed).toBe(0);
  });

  it("gives provider links written before the byProvider index their keys (the payout catch-up's accounts)", async () => {
    const account = `acct_${newId().toLowerCase()}`;
    const link = {
      provider: "stripe_account" as const,
      external_id: account,
      organisation_id: newId(),
      gym_id: "g1",
    };
    // As written before the index: the Put's item without its gsi1 keys.
    const { Item, TableName } = db().entities.providerLink.put(link).params() as {
      Item: Record<string, unknown>;
      TableName: string;
    };
    const { gsi1pk: _pk, gsi1sk: _sk, ...old } = Item;
    const { PutCommand } = await import("@aws-sdk/lib-dynamodb");
    const { dynamo } = await import("../db/client");
    await dynamo().send(new PutCommand({ TableName, Item: old }));
    const listed = async () =>
      (
        await db().entities.providerLink.query.byProvider({ provider: "stripe_account" }).go({ pages: "all" })
      ).data.map((l) => l.external_id);
    expect(await listed()).not.toContain(account);

    const first = await backfillIndexKeys();
    expect(first.links_keyed).toBeGreaterThan(0);
    expect(await listed()).toContain(account);
    await backfillIndexKeys();
    expect((await listed()).filter((a) => a === account)).toHaveLength(1);
  });
});
