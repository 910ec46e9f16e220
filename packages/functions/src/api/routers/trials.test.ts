/**
 * Trials (issue 38; docs/offers.md "Trials"), over real HTTP with the business clock, the billing
 * run and the simulated providers driven in-process: a price carries a trial; the quote shows the
 * trial and the first paid charge; a member converts and pays exactly what the quote said, or stops
 * during the trial and pays nothing; a member takes a price's trial once, even confirming twice at once.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { checkLedgerAfterEach } from "../../../../../tests/support/ledger";
import { type MoneyWorld, moneyWorld } from "../../../../../tests/support/money";
import {
  addPrice as addWorldPrice,
  adminOf,
  at,
  charges as chargesOf,
  core,
  join as joinAs,
  memberOf,
  runJob,
} from "../../../../../tests/support/money-api";

const api = useTestApi();
checkLedgerAfterEach();
let world: MoneyWorld;
let admin: HttpClient;

const addPrice = (input: Parameters<typeof addWorldPrice>[1]) => addWorldPrice(world, input);
const cardMember = () =>
  memberOf(world, api.url, { prefix: "trial", name: (n) => `Trial Member ${n}`, card: "4242424242424242" });
const join = (member: { client: HttpClient }, priceId: string) => joinAs(world, member.client, priceId);
const tried = async (subscriptionId: string) => (await chargesOf(subscriptionId)).tried;
const quote = (member: { client: HttpClient }, priceId: string, start: string) =>
  member.client.post(`/api/prices/${priceId}/pro-rata`, { start_date: start, billing_date: start });

beforeAll(async () => {
  world = await moneyWorld({ name: "Trial Gyms" });
  admin = await adminOf(world, api.url, "trial-admin@example.nz");
});

beforeEach(async () => {
  const { resetSimulatedProviders } = await core();
  resetSimulatedProviders();
});

describe("a price's trial (staff)", () => {
  it("carries trial_days and trial_amount and reads as a sentence; bad input is a 422 on the field", async () => {
    const path = `/api/offerings/${world.offering_id}/prices`;
    const free = await admin.post(path, { amount: 2400, billing_frequency: "weekly", trial_days: 7 });
    expect(free.status).toBe(201);
    expect(free.body.data).toMatchObject({
      trial_days: 7,
      trial_amount: 0,
      formatted_trial: "7-day free trial",
    });
    const cheap = await admin.post(path, {
      amount: 6000,
      billing_frequency: "monthly",
      trial_days: 14,
      trial_amount: 1000,
    });
    expect(cheap.body.data.formatted_trial).toBe("14-day trial for $10.00");
    const none = await admin.post(path, { amount: 2400, billing_frequency: "weekly" });
    expect(none.body.data).toMatchObject({ trial_days: null, trial_amount: null, formatted_trial: null });
    // The join site's plan list says the trial where the member chooses, in the same words.
    const gym = (await admin.get(`/api/gyms/${world.gym_id}`)).body.data;
    const join = await admin.get(`/api/join?gym=${gym.uuid}`);
    const offered = new Map(
      join.body.data.offerings
        .flatMap((o: { prices: { id: string }[] }) => o.prices)
        .map((p: { id: string }) => [p.id, p]),
    );
    expect(offered.get(free.body.data.id)).toMatchObject({
      trial_days: 7,
      trial_amount: 0,
      formatted_trial: "7-day free trial",
    });
    expect(offered.get(cheap.body.data.id)).toMatchObject({ formatted_trial: "14-day trial for $10.00" });
    expect(offered.get(none.body.data.id)).toMatchObject({ trial_days: null, formatted_trial: null });

    const refused = async (body: Record<string, unknown>) => {
      const res = await admin.post(path, { amount: 2400, billing_frequency: "weekly", ...body });
      expect(res.status).toBe(422);
      return res.body.errors;
    };
    expect((await refused({ trial_days: 0 })).trial_days).toEqual(["Enter a trial of 1 to 90 days"]);
    expect((await refused({ trial_days: 91 })).trial_days).toEqual(["Enter a trial of 1 to 90 days"]);
    expect((await refused({ trial_amount: 500 })).trial_days).toEqual([
      "Enter how many days the trial lasts",
    ]);
    expect((await refused({ trial_days: 7, trial_amount: 10 })).trial_amount).toEqual([
      "Enter $0.00 (nothing is charged) or at least $0.50: a card cannot be charged less",
    ]);
    expect(
      (await refused({ billing_frequency: "one_off", term_amount: 12, term_unit: "months", trial_days: 7 }))
        .trial_days,
    ).toEqual(["A pay-in-full price cannot have a trial"]);
  });
});

describe("joining with a trial", () => {
  it("converts: nothing taken in the free week, then exactly the quote's first paid charge on the day after", async () => {
    await at("2027-03-01");
    const priceId = await addPrice({
      amount: 2400,
      billing_frequency: "weekly",
      joining_fee: 1000,
      trial_days: 7,
    });
    const member = await cardMember();
    const quoted = await quote(member, priceId, "2027-03-01");
    expect(quoted.status).toBe(200);
    expect(quoted.body.data.trial).toMatchObject({
      days: 7,
      amount: 0,
      ends_on: "2027-03-08",
      last_day: "2027-03-07",
    });
    expect(quoted.body.data).toMatchObject({ first_payment_date: "2027-03-08", first_payment_total: 3400 });
    const sub = await join(member, priceId);
    expect(sub.first_payment.amount).toBe(0);
    const stored = await (await core()).findSubscription(world.organisation_id, sub.id);
    expect(stored).toMatchObject({
      trial_ends_on: "2027-03-08",
      trial_amount: 0,
      billing_date: "2027-03-08",
    });
    // Before the billing run has "paid" the $0.00 trial charge, the member already reads the first
    // paid charge as their next payment, not "$0.00 today" (seen by hand on /membership).
    const joined = await member.client.get("/api/me/active-subscription");
    expect(joined.body.data.next_charge).toMatchObject({
      due_on: "2027-03-08",
      period_last_day: "2027-03-14",
      amount: 3400,
    });

    await runJob("billing-run");
    expect(await tried(sub.id)).toEqual([]); // a $0.00 trial: no provider call
    const during = await member.client.get("/api/me/active-subscription");
    expect(during.body.data).toMatchObject({
      is_active: true,
      trial: { ends_on: "2027-03-08", last_day: "2027-03-07", amount: 0, in_trial: true },
    });
    // The trial is the current period; the next payment is the first paid one, as quoted.
    expect(during.body.data.current_period_end).toBe(new Date("2027-03-08T00:00:00+13:00").toISOString());
    expect(during.body.data.next_charge).toMatchObject({
      due_on: "2027-03-08",
      period_last_day: "2027-03-14",
      amount: 3400,
    });

    await at("2027-03-07");
    await runJob("billing-run");
    expect(await tried(sub.id)).toEqual([]);
    await at("2027-03-08");
    await runJob("billing-run");
    expect(await tried(sub.id)).toEqual([quoted.body.data.first_payment_total_with_card_surcharge]);
    await at("2027-03-15");
    await runJob("billing-run");
    const [, second] = await tried(sub.id);
    expect(second - 2400).toBeGreaterThan(0); // the week's price and its card surcharge
    expect(second - 2400).toBeLessThan(quoted.body.data.card_surcharge);
  });

  it("stops during the trial: the membership ends at the trial's end and nothing is ever charged", async () => {
    await at("2027-04-01");
    const priceId = await addPrice({ amount: 2400, billing_frequency: "weekly", trial_days: 7 });
    const member = await cardMember();
    const sub = await join(member, priceId);
    await runJob("billing-run");
    await at("2027-04-04");
    const other = await cardMember();
    expect((await other.client.post(`/api/me/subscriptions/${sub.id}/stop-trial`, {})).status).toBe(404);
    const stopped = await member.client.post(`/api/me/subscriptions/${sub.id}/stop-trial`, {});
    expect(stopped.status).toBe(200);
    expect(stopped.body.data.cancellation_effective_at).toBe(
      new Date("2027-04-08T00:00:00+12:00").toISOString(),
    );
    expect(stopped.body.data.break_fee_payment_id ?? null).toBeNull();
    const again = await member.client.post(`/api/me/subscriptions/${sub.id}/stop-trial`, {});
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.body)).toContain("already_cancelled");
    for (const day of ["2027-04-07", "2027-04-08", "2027-04-15"]) {
      await at(day);
      await runJob("billing-run");
    }
    expect(await tried(sub.id)).toEqual([]);
  });

  it("after the trial, stop-trial is 409 not_in_trial (the member cancels as any member)", async () => {
    await at("2027-05-01");
    const priceId = await addPrice({ amount: 2400, billing_frequency: "weekly", trial_days: 7 });
    const member = await cardMember();
    const sub = await join(member, priceId);
    await at("2027-05-08");
    const late = await member.client.post(`/api/me/subscriptions/${sub.id}/stop-trial`, {});
    expect(late.status).toBe(409);
    expect(JSON.stringify(late.body)).toContain("not_in_trial");
  });

  it("is taken once per member: confirming twice at once makes one membership; rejoining later has no trial", async () => {
    await at("2027-06-01");
    const priceId = await addPrice({ amount: 2400, billing_frequency: "weekly", trial_days: 7 });
    const member = await cardMember();
    const answers = await Promise.all(
      [0, 1].map(() => member.client.post("/api/subscriptions", { price_id: priceId, gym_id: world.gym_id })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const sub = answers.find((a) => a.status === 201)?.body.data as { id: string };
    await member.client.post(`/api/me/subscriptions/${sub.id}/stop-trial`, {});
    await at("2027-06-09"); // the stopped trial has ended
    const quoted = await quote(member, priceId, "2027-06-09");
    expect(quoted.body.data.trial).toBeNull();
    expect(quoted.body.data.first_payment_total).toBe(2400);
    const again = await join(member, priceId);
    expect(again.first_payment.amount).toBe(2400);
  });

  it("emails the member 3 days before the trial ends, once: the amount, the date and the way to stop (in place of the reminder)", async () => {
    await at("2027-07-01");
    const priceId = await addPrice({ amount: 2400, billing_frequency: "weekly", trial_days: 7 });
    const member = await cardMember();
    await member.client.put("/api/me/register-fields", { payment_reminders: false });
    const quoted = await quote(member, priceId, "2027-07-01");
    await join(member, priceId);
    await runJob("billing-run"); // the free week, and the first paid charge planned for 8 July
    const mail = async () =>
      (
        (await admin.get("/api/dev/mail")).body.data as { to: string; subject: string; text: string }[]
      ).filter((m) => m.to === member.email && /trial|payment of/.test(m.subject));
    await at("2027-07-04"); // four days before the first paid charge: not yet
    await runJob("member-notices");
    expect(await mail()).toHaveLength(0);
    await at("2027-07-05");
    await Promise.all([runJob("member-notices"), runJob("member-notices")]);
    await runJob("member-notices");
    const sent = await mail();
    expect(sent.map((m) => m.subject)).toEqual([
      `Your ${world.gym_name} trial ends on Wednesday, 7 July 2027`,
    ]);
    expect(sent[0].text).toContain(`${quoted.body.data.formatted_first_payment_total_with_card_surcharge}`);
    expect(sent[0].text).toContain("Thursday, 8 July 2027");
    expect(sent[0].text).toMatch(/Stop my trial: http.*\/membership/);
  });

  it("a trial starting on a later day is not started early by staff (its trial would lengthen)", async () => {
    await at("2027-08-01");
    const priceId = await addPrice({ amount: 2400, billing_frequency: "weekly", trial_days: 7 });
    const member = await cardMember();
    const joined = await member.client.post("/api/subscriptions", {
      price_id: priceId,
      gym_id: world.gym_id,
      start_date: "2027-08-05",
    });
    expect(joined.status).toBe(201);
    const id = joined.body.data.id as string;
    expect((await admin.get(`/api/subscriptions/${id}/start-early-data`)).body.data.allowed).toBe(false);
    const started = await admin.post(`/api/subscriptions/${id}/start-now`);
    expect(started.status).toBe(409);
  });

  it("door access follows the trial: in good standing during it, and not once a stopped trial has ended", async () => {
    await at("2027-09-01");
    const priceId = await addPrice({ amount: 2400, billing_frequency: "weekly", trial_days: 7 });
    const member = await cardMember();
    const sub = await join(member, priceId);
    await runJob("billing-run");
    const standing = async () =>
      (await admin.get(`/api/members/${member.user.user_id}/access-control`)).body.data as {
        standing: boolean;
        reason?: string;
      };
    expect(await standing()).toMatchObject({ standing: true });
    await member.client.post(`/api/me/subscriptions/${sub.id}/stop-trial`, {});
    await at("2027-09-07"); // the trial's last day: still a member
    expect(await standing()).toMatchObject({ standing: true });
    await at("2027-09-08");
    await runJob("door-access");
    expect((await standing()).standing).toBe(false);
  });
});
