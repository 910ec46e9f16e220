/**
 * Which index keys a payment's writes carry (docs/data-model.md "Indexes added for scale"): no
 * payment write touches gsi1 (keyed on the organisation alone, every attribute projected: one
 * partition rewritten by every update of every payment, a write hot spot in a billing run); each
 * payment is in the list index by its due month; the whole-organisation reads (the rollup recount,
 * the ledger check) find every payment without it.
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../tests/support/api";
import {
  addCard,
  addMember,
  type MoneyWorld,
  moneyWorld,
  subscribeMember,
} from "../../../../tests/support/money";
import { setBusinessClock } from "../clock";
import { config } from "../config";
import { dynamo } from "../db/client";
import { db } from "../db/service";
import { settleSimulatedNow } from "../simulators/simulation";
import { everyPayment } from "./every-payment";
import { billingRun } from "./jobs/billing-run";

useTestApi();
/** 09:00 on Tuesday 1 December 2026 in Auckland (NZDT). */
const START = new Date("2026-11-30T20:00:00.000Z");

let world: MoneyWorld;
beforeAll(async () => {
  world = await moneyWorld({ name: "Index Keys Gyms" });
  await setBusinessClock(START);
});

async function rawPayment(paymentId: string) {
  const key = db()
    .entities.payment.get({ organisation_id: world.organisation_id, payment_id: paymentId })
    .params();
  const answer = await dynamo().send(new GetCommand({ TableName: config.tableName, Key: key.Key }));
  return answer.Item as Record<string, unknown>;
}

describe("payment index keys", () => {
  it("no payment write (subscribe, the claim, the settlement, the next upcoming payment) carries gsi1 keys; each is keyed by its due month", async () => {
    const user = await addMember(world, "Gale Keys");
    await addCard(world, user, "4242424242424242");
    await subscribeMember(world, user);
    await billingRun(START);
    await settleSimulatedNow();
    const { data } = await db()
      .entities.payment.query.byMember({ organisation_id: world.organisation_id, user_id: user.user_id })
      .go();
    expect(data.map((p) => p.status).sort()).toEqual(["sent", "upcoming"]);
    for (const p of data) {
      const item = await rawPayment(p.payment_id);
      expect(item.gsi1pk).toBeUndefined();
      expect(item.gsi1sk).toBeUndefined();
      expect(item.gsi5pk).toBe(`${world.organisation_id}#${p.due_on.slice(0, 7)}`);
    }
    // The whole-organisation read finds them through the months, whole records.
    const every = await everyPayment(world.organisation_id);
    const mine = every.filter((p) => p.user_id === user.user_id);
    expect(mine.map((p) => p.payment_id).sort()).toEqual(data.map((p) => p.payment_id).sort());
    expect(mine.find((p) => p.status === "sent")?.idempotency_key).toBeTruthy();
  });
});
