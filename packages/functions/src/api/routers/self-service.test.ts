import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import { addMember } from "../../../../../tests/support/payments";

/** A member's own pause and cancellation on the join site: the desk's rules, their own membership only. */
const api = useSeededApi();
let today: string;
let addDays: (d: string, n: number) => string;
let prices: Awaited<ReturnType<typeof import("../../local/seed/offerings")["seedOfferings"]>>["prices"];

let n = 0;
async function member(priceId: string) {
  const { createSubscription } = await import("@gym/core/subscription/service");
  const gymId = api.seed.gyms.ponsonby.gym_id;
  const email = `self${++n}@example.com`;
  const { user } = await addMember(api.seed, { name: `Self Member${n}`, email, gymId });
  const { subscription } = await createSubscription({
    organisation_id: api.seed.organisations.harbour.organisation_id,
    user_id: user.user_id,
    gym_id: gymId,
    price_id: priceId,
    start_date: today,
  });
  return { id: subscription.subscription_id, client: await signIn(api.url, email) };
}

beforeAll(async () => {
  const { seedOfferings } = await import("../../local/seed/offerings");
  prices = (await seedOfferings(api.seed)).prices;
  today = await (await import("@gym/core/clock")).businessToday();
  addDays = (await import("@gym/core/billing/calendar")).addDays;
});

describe("member self-service", () => {
  it("a member pauses within their credit; past it is refused with the desk's message", async () => {
    const { id, client } = await member(prices.anytimeWeekly.price_id);
    const tooLong = await client.post(`/api/me/subscriptions/${id}/pause`, {
      pause_start_at: addDays(today, 1),
      pause_end_at: addDays(today, 40),
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors.pause_end_at[0]).toBe(
      "This pause is 39 days but only 30 pause days are left.",
    );
    const paused = await client.post(`/api/me/subscriptions/${id}/pause`, {
      pause_start_at: addDays(today, 2),
      pause_end_at: addDays(today, 9),
    });
    expect(paused.status).toBe(200);
    expect(paused.body.data).toMatchObject({ pause_days_remaining: 23, is_paused: true });
  });

  it("a term member sees the consequences, then cancels at the period end (never immediately), free inside cooling-off", async () => {
    const { id, client } = await member(prices.anytimeTerm.price_id);
    const preview = await client.get(`/api/me/subscriptions/${id}/cancellation-preview`);
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ immediate: false, in_cooling_off: true, break_fee: 0 });
    const cancelled = await client.post(`/api/me/subscriptions/${id}/cancel`, {
      immediate: true,
      cancellation_reasons: ["Moving away"],
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      is_cancelled: true,
      cancelled_during_cooling_off_period: true,
    });
    // At the end of the paid period, as the preview said, not today.
    expect(cancelled.body.data.cancellation_taken_effect).toBe(false);
    expect(cancelled.body.data.door_access.standing).toBe(true);
    const again = await client.post(`/api/me/subscriptions/${id}/cancel`, {});
    expect(again.status).toBe(409);
    // One email confirms it (not one per try): the last day, no fee, how to undo it.
    const mail = (await client.get("/api/dev/mail")).body.data as {
      to: string;
      subject: string;
      text: string;
    }[];
    const me = (await client.get("/api/me")).body.data.email;
    const told = mail.filter((m) => m.to === me && m.subject.endsWith("membership is cancelled"));
    expect(told).toHaveLength(1);
    expect(told[0].text).toContain("Your last day as a member is");
    expect(told[0].text).toContain("Changed your mind? Ask Harbour Fitness Ponsonby before");
  });

  it("another member's membership is not there (404), for every call", async () => {
    const owner = await member(prices.anytimeWeekly.price_id);
    const other = await member(prices.anytimeWeekly.price_id);
    const body = { pause_start_at: addDays(today, 2), pause_end_at: addDays(today, 4) };
    expect((await other.client.get(`/api/me/subscriptions/${owner.id}/cancellation-preview`)).status).toBe(
      404,
    );
    expect((await other.client.post(`/api/me/subscriptions/${owner.id}/pause`, body)).status).toBe(404);
    expect((await other.client.post(`/api/me/subscriptions/${owner.id}/cancel`, {})).status).toBe(404);
    // Nothing changed on the owner's membership.
    const own = await owner.client.get(`/api/me/subscriptions/${owner.id}/cancellation-preview`);
    expect(own.status).toBe(200);
    const staff = await signIn(api.url, "admin@example.com");
    const seen = await staff.get(`/api/subscriptions/${owner.id}`);
    expect(seen.body.data).toMatchObject({ is_cancelled: false, pause_days_remaining: 30 });
  });

  it("an ended member's state carries the ended membership's payments, so /membership keeps their receipts", async () => {
    const { id, client } = await member(prices.anytimeWeekly.price_id);
    const staff = await signIn(api.url, "admin@example.com");
    const paid = await staff.post(`/api/subscriptions/${id}/manual-payment`, {
      amount: 2400,
      payment_method: "cash",
    });
    expect(paid.status).toBe(200);
    const ended = await staff.post(`/api/subscriptions/${id}/cancel`, { immediate: true });
    expect(ended.status).toBe(200);
    expect(ended.body.data.cancellation_taken_effect).toBe(true);
    const state = (await client.get("/api/me/registration")).body.data;
    expect(state.subscription).toBeNull();
    expect(state.ended_subscription.id).toBe(id);
    const sent = (state.ended_subscription.payments as { id: string; status: string }[]).filter(
      (p) => p.status === "sent",
    );
    expect(sent).toHaveLength(1);
    // Its receipt opens for the member, as the page's link does.
    expect((await client.get(`/api/me/payments/${sent[0].id}/receipt`)).status).toBe(200);
  });
});
