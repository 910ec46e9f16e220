/**
 * Simulation finding m109 (`npm run simulate -- --members 200 --days 365 --seed 1 --faults`), replayed
 * through the engine on the business clock with the member's operations on their days, as
 * `--trace-member m109` printed them: a bi-monthly term member (bank, then card) was never charged the
 * period due 13 July 2028. No fault was involved. 3 May a pause 22–26 May was booked; 9 May the run
 * charged the period with it in (stored end 13 July); 15 May the pause was removed (the next payment
 * back to 9 July); 17 May a cancellation at the end of the paid period (9 July) removed that payment;
 * 28 May it was undone, and the next payment was planned after the charged period's stored end: the
 * period of 9 July skipped, the one after it planned. docs/billing.md "Cancellation, cooling-off,
 * terms" (undo), docs/simulation.md "What it found in core" 5.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../tests/support/api";
import { checkLedgerAfterEach } from "../../../../tests/support/ledger";
import {
  addBankAccount,
  addCard,
  addMember,
  type MoneyWorld,
  moneyWorld,
  worldAdmin,
} from "../../../../tests/support/money";
import type { Actor } from "../auth/actor";
import { addDays, type CivilDate, startOfAucklandDay } from "../billing/calendar";
import { setBusinessClock } from "../clock";
import { db } from "../db/service";
import { newId } from "../ids";
import { billingRun } from "../payment/jobs/billing-run";
import { paymentPolling } from "../payment/jobs/payment-polling";
import type { PaymentRecord } from "../payment/store";
import { switchDefaultPaymentType } from "../payment-type/service";
import { resetSimulatedProviders, settleSimulatedNow, simulatedLedger } from "../simulators/simulation";
import { cancelSubscription } from "./operations/cancel";
import { pauseSubscription, removePause } from "./operations/pause";
import { undoCancellation } from "./operations/undo-cancellation";
import { createSubscription } from "./service";

useTestApi();
checkLedgerAfterEach();

let world: MoneyWorld;
const admin = (): Actor => worldAdmin(world);

const at = (day: CivilDate, hour: number) =>
  setBusinessClock(new Date(startOfAucklandDay(day).getTime() + hour * 3_600_000));

beforeAll(async () => {
  world = await moneyWorld({ name: "Sim m109" });
  resetSimulatedProviders();
});

describe("simulation finding m109", () => {
  it("a year of pauses, a removed pause and undone cancellations charges every period, 13 July 2028 included", async () => {
    // The simulation's bi-monthly term price: $110.49, a $25.00 joining fee, 12 months.
    const price_id = newId();
    await db()
      .entities.price.create({
        organisation_id: world.organisation_id,
        price_id,
        offering_id: world.offering_id,
        amount: 11049,
        billing_frequency: "bi_monthly",
        joining_fee: 2500,
        term_amount: 12,
        term_unit: "months",
        grouping_unique_identifier: newId(),
      } as never)
      .go();
    await at("2027-10-17", 7);
    const user = await addMember(world, "Sim Member 109");
    await addBankAccount(world, user, "pays");
    const { subscription } = await createSubscription({
      organisation_id: world.organisation_id,
      user_id: user.user_id,
      gym_id: world.gym_id,
      price_id,
      start_date: "2027-10-17",
      billing_date: "2027-10-19",
    });
    const id = subscription.subscription_id;
    const pause = (start: CivilDate, end: CivilDate) =>
      pauseSubscription(admin(), id, { pause_start_at: start, pause_end_at: end });
    const cancel = () =>
      cancelSubscription(admin(), id, { immediate: false, cancellation_reasons: ["simulated"] });
    // What the member and staff did, on the day (before the day's billing run), as the trace shows.
    const operations: Record<CivilDate, () => Promise<unknown>> = {
      "2027-11-06": cancel,
      "2027-11-07": () => undoCancellation(admin(), id),
      "2027-11-09": () => pause("2027-11-13", "2027-11-18"),
      "2027-12-20": () => pause("2027-12-25", "2028-01-08"),
      "2027-12-23": async () => {
        const card = await addCard(world, user, "5555555555554444");
        await switchDefaultPaymentType(world.organisation_id, user.user_id, card.payment_type_id);
      },
      "2028-01-29": cancel,
      "2028-02-02": () => undoCancellation(admin(), id),
      "2028-05-03": () => pause("2028-05-22", "2028-05-26"),
      "2028-05-15": () => removePause(admin(), id),
      "2028-05-17": cancel,
      "2028-05-28": () => undoCancellation(admin(), id),
      "2028-05-30": () => pause("2028-05-30", "2028-06-03"),
      "2028-08-25": () => pause("2028-08-27", "2028-08-30"),
    };
    for (let day: CivilDate = "2027-10-17"; day <= "2028-09-18"; day = addDays(day, 1)) {
      await at(day, 7);
      await operations[day]?.();
      await at(day, 9);
      const run = await billingRun(new Date(startOfAucklandDay(day).getTime() + 9 * 3_600_000));
      if (run.claimed > 0) {
        await settleSimulatedNow();
        await paymentPolling(new Date(startOfAucklandDay(day).getTime() + 10 * 3_600_000));
      }
    }

    const { data } = await db()
      .entities.payment.query.byMember({ organisation_id: world.organisation_id, user_id: user.user_id })
      .go({ pages: "all" });
    const payments = (data as PaymentRecord[]).sort((a, b) => (a.due_on < b.due_on ? -1 : 1));
    const periods = payments.filter((p) => p.charge_index !== undefined);
    // The reference model's days (packages/core/src/billing/schedule-sim-m109.test.ts), each charged once.
    expect(periods.map((p) => `${p.due_on} #${p.charge_index} ${p.status}`)).toEqual([
      "2027-10-17 #0 sent",
      "2027-10-19 #1 sent",
      "2027-12-24 #2 sent",
      "2028-03-09 #3 sent",
      "2028-05-09 #4 sent",
      "2028-07-13 #5 sent",
      "2028-09-16 #6 sent",
      "2028-11-16 #7 upcoming",
    ]);
    const july = periods.find((p) => p.due_on === "2028-07-13");
    expect(july?.amount).toBe(11049);
    const taken = simulatedLedger().filter((e) => e.idempotency_key === `payment-${july?.payment_id}`);
    expect(taken.map((e) => [e.amount, e.taken])).toEqual([[11049 + (july?.surcharge ?? 0), true]]);
    // A year of days, each with its billing run: about 15 s alone, over 30 s beside the whole suite.
  }, 120_000);
});
