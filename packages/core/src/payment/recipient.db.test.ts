/**
 * One source for a person's email and name (issue 39 item 5): after a member's login email changes
 * (user/login-email.ts, the one move every email change goes through), the money emails go to the
 * new address, not to the copy the subscription and its payments were made with.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../tests/support/api";
import { checkLedgerAfterEach } from "../../../../tests/support/ledger";
import {
  addCard,
  addMember,
  type MoneyWorld,
  moneyWorld,
  subscribeMember,
} from "../../../../tests/support/money";
import { setBusinessClock } from "../clock";
import { listOutbox } from "../email/port";
import { resetSimulatedProviders, settleSimulatedNow } from "../simulators/simulation";
import { moveLoginEmail } from "../user/login-email";
import { billingRun } from "./jobs/billing-run";

useTestApi();
checkLedgerAfterEach();
/** 09:00 on Tuesday 1 December 2026 in Auckland (NZDT). */
const START = new Date("2026-11-30T20:00:00.000Z");
let world: MoneyWorld;

beforeAll(async () => {
  world = await moneyWorld({ name: "Recipient Gyms" });
});

beforeEach(async () => {
  resetSimulatedProviders();
  await setBusinessClock(START);
});

/** A member subscribed with `card`, whose login email then changes (the subscription keeps the old copy). */
async function movedMember(card: string, name: string) {
  const user = await addMember(world, name);
  await addCard(world, user, card);
  await subscribeMember(world, user);
  const moved = `moved.${user.email}`;
  await moveLoginEmail(user, moved);
  return { old: user.email, moved };
}

const mailTo = async (to: string) => listOutbox(100, to);

describe("money emails after an email change", () => {
  it("the receipt goes to the new address", async () => {
    const m = await movedMember("4242424242424242", "Rhea Receipt");
    await billingRun(START);
    await settleSimulatedNow();
    expect((await mailTo(m.moved)).some((mail) => /receipt|tax invoice/i.test(mail.subject))).toBe(true);
    expect(await mailTo(m.old)).toEqual([]);
  });

  it("the failed payment email goes to the new address", async () => {
    const m = await movedMember("4000000000000341", "Fern Failed");
    await billingRun(START);
    await settleSimulatedNow();
    expect((await mailTo(m.moved)).length).toBeGreaterThan(0);
    expect(await mailTo(m.old)).toEqual([]);
  });
});
