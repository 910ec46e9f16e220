import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  canAddPif,
  deriveSubscriptionState,
  hasStanding,
  type SubscriptionFacts,
} from "./subscription-state";

const now = new Date("2026-03-10T00:00:00.000Z"); // 10 March 13:00 NZDT
const base: SubscriptionFacts = { now, billing_frequency: "monthly", current_period_end: "2026-03-31" };
const state = (f: Partial<SubscriptionFacts>) => deriveSubscriptionState({ ...base, ...f });

/** One test per sentence of spec 001 §4 "Subscription derived states". */
describe("subscription derived states (spec 001 §4)", () => {
  it("paused: now is after pause start", () => {
    expect(state({ pause_start_at: "2026-03-01", pause_end_at: "2026-03-20" })).toMatchObject({
      paused: true,
      paused_now: true,
      pause_in_future: false,
    });
    expect(state({ pause_start_at: "2026-02-01", pause_end_at: "2026-03-01" }).paused).toBe(false);
  });

  it("paused: also shown when a pause is in the future", () => {
    expect(state({ pause_start_at: "2026-04-01", pause_end_at: "2026-04-15" })).toMatchObject({
      paused: true,
      paused_now: false,
      pause_in_future: true,
    });
  });

  it("cancelled: cancelled_at set; cancelled now when it has taken effect", () => {
    const pending = state({ cancelled_at: "2026-03-05T01:00:00Z", undo_cancellation_until: "2026-03-31" });
    expect(pending).toMatchObject({ cancelled: true, cancellation_taken_effect: false });
    const done = state({ cancelled_at: "2026-02-05T01:00:00Z", undo_cancellation_until: "2026-02-28" });
    expect(done).toMatchObject({ cancelled: true, cancellation_taken_effect: true });
    expect(state({}).cancelled).toBe(false);
  });

  it("undo cancellation possible while cancelled and now is before undo_cancellation_until", () => {
    expect(
      state({ cancelled_at: "2026-03-05", undo_cancellation_until: "2026-03-31" }).undo_cancellation_possible,
    ).toBe(true);
    expect(
      state({ cancelled_at: "2026-03-05", undo_cancellation_until: "2026-03-10" }).undo_cancellation_possible,
    ).toBe(false);
    expect(state({ undo_cancellation_until: "2026-03-31" }).undo_cancellation_possible).toBe(false);
  });

  it("grace period: grace_period_ends_at set", () => {
    expect(state({ grace_period_ends_at: "2026-03-20" }).in_grace_period).toBe(true);
    expect(state({}).in_grace_period).toBe(false);
  });

  it("upcoming: upcoming_state set and not cancelled (values upcoming, failed)", () => {
    expect(state({ upcoming_state: "upcoming" })).toMatchObject({
      upcoming: true,
      upcoming_state: "upcoming",
    });
    expect(state({ upcoming_state: "failed" })).toMatchObject({ upcoming: true, upcoming_state: "failed" });
    expect(state({ upcoming_state: "upcoming", cancelled_at: "2026-03-01" }).upcoming).toBe(false);
  });

  it("active: not paused, cancelled, in grace period or upcoming", () => {
    expect(state({}).active).toBe(true);
    expect(state({ pause_start_at: "2026-04-01", pause_end_at: "2026-04-02" }).active).toBe(false);
    expect(state({ cancelled_at: "2026-03-01" }).active).toBe(false);
    expect(state({ grace_period_ends_at: "2026-03-20" }).active).toBe(false);
    expect(state({ upcoming_state: "upcoming" }).active).toBe(false);
  });

  it("card colour: green = healthy, or cancelled but still within the paid period", () => {
    expect(state({}).card_colour).toBe("green");
    expect(state({ cancelled_at: "2026-03-05", undo_cancellation_until: "2026-03-31" }).card_colour).toBe(
      "green",
    );
  });

  it("card colour: amber = paused, in grace period, or upcoming", () => {
    expect(state({ pause_start_at: "2026-04-01", pause_end_at: "2026-04-15" }).card_colour).toBe("amber");
    expect(state({ grace_period_ends_at: "2026-03-20" }).card_colour).toBe("amber");
    expect(state({ upcoming_state: "failed" }).card_colour).toBe("amber");
  });

  it("card colour: red = cancelled with period over, or cancelled while in grace period", () => {
    expect(state({ cancelled_at: "2026-02-05", undo_cancellation_until: "2026-02-28" }).card_colour).toBe(
      "red",
    );
    expect(
      state({
        cancelled_at: "2026-03-05",
        undo_cancellation_until: "2026-03-31",
        grace_period_ends_at: "2026-03-20",
      }).card_colour,
    ).toBe("red");
  });

  it("on cooling period: within a term membership and before cooling_period_ends_at", () => {
    const term = { is_term_membership: true, term_ends_at: "2027-03-01" };
    expect(state({ ...term, cooling_period_ends_at: "2026-03-12" }).on_cooling_period).toBe(true);
    expect(state({ ...term, cooling_period_ends_at: "2026-03-08" }).on_cooling_period).toBe(false);
    expect(state({ cooling_period_ends_at: "2026-03-12" }).on_cooling_period).toBe(false);
    expect(
      state({ ...term, term_ends_at: "2026-03-01", cooling_period_ends_at: "2026-03-12" }).on_cooling_period,
    ).toBe(false);
  });

  it("membership type shown: term (amount plus unit initial plus Term), PIF, or Flexi", () => {
    expect(state({ term_amount: 12, term_unit: "months" }).membership_type_label).toBe("12M Term");
    expect(state({ billing_frequency: "one_off" }).membership_type_label).toBe("PIF");
    expect(state({}).membership_type_label).toBe("Flexi");
  });

  it("a scheduled price change exists when transition_to_price is set; at transition_takes_effect_at or else period end", () => {
    expect(state({})).toMatchObject({
      has_scheduled_price_change: false,
      price_change_takes_effect_at: null,
    });
    expect(state({ transition_to_price: "price_2", transition_takes_effect_at: "2026-04-15" })).toMatchObject(
      {
        has_scheduled_price_change: true,
        price_change_takes_effect_at: new Date("2026-04-14T12:00:00.000Z"),
      },
    );
    expect(state({ transition_to_price: "price_2" }).price_change_takes_effect_at).toEqual(
      new Date("2026-03-30T11:00:00.000Z"),
    );
  });

  it("a new PIF membership can be added only if there is no subscription, or none with a scheduled price change and none upcoming", () => {
    expect(canAddPif([])).toBe(true);
    expect(canAddPif([{ ...base }])).toBe(true);
    expect(canAddPif([{ ...base }, { ...base, transition_to_price: "p" }])).toBe(false);
    expect(canAddPif([{ ...base, upcoming_state: "upcoming" }])).toBe(false);
  });

  it("start-now is offered only for non-cancelled, upcoming, non-PIF subscriptions", () => {
    expect(state({ upcoming_state: "upcoming" }).start_now_offered).toBe(true);
    expect(state({ upcoming_state: "upcoming", cancelled_at: "2026-03-01" }).start_now_offered).toBe(false);
    expect(state({ upcoming_state: "upcoming", billing_frequency: "one_off" }).start_now_offered).toBe(false);
    expect(state({}).start_now_offered).toBe(false);
  });
});

describe("the actions offered on the staff card (docs/billing.md: derived states, offered actions)", () => {
  const offered = (f: Partial<SubscriptionFacts>) =>
    Object.entries(state(f).actions)
      .filter(([, on]) => on)
      .map(([action]) => action);

  it("an active membership: pause, cancel, a manual payment", () => {
    expect(offered({})).toEqual(["pause", "cancel", "manual_payment"]);
  });

  it("a booked pause can be removed, and no second pause is booked while it is not over", () => {
    expect(offered({ pause_start_at: "2026-04-01", pause_end_at: "2026-04-15" })).toEqual([
      "remove_pause",
      "cancel",
      "manual_payment",
    ]);
  });

  it("a pause in progress cannot be removed; once over, a new pause is offered again", () => {
    expect(offered({ pause_start_at: "2026-03-01", pause_end_at: "2026-03-20" })).toEqual([
      "cancel",
      "manual_payment",
    ]);
    expect(offered({ pause_start_at: "2026-02-01", pause_end_at: "2026-03-01" })).toEqual([
      "pause",
      "cancel",
      "manual_payment",
    ]);
  });

  it("cancelled: undo while it can be undone (with a manual payment), nothing once past undoing", () => {
    expect(offered({ cancelled_at: "2026-03-05", undo_cancellation_until: "2026-03-31" })).toEqual([
      "undo_cancellation",
      "manual_payment",
    ]);
    expect(offered({ cancelled_at: "2026-02-05", undo_cancellation_until: "2026-02-28" })).toEqual([]);
  });

  it("upcoming: start now; pay in full: a pause (its end moves by the paused days), no start now or manual payment", () => {
    expect(offered({ upcoming_state: "upcoming" })).toEqual([
      "pause",
      "cancel",
      "start_now",
      "manual_payment",
    ]);
    expect(offered({ billing_frequency: "one_off", pif_ends_at: "2026-06-10" })).toEqual(["pause", "cancel"]);
  });
});

describe("door standing (domain.md): active, or cancelled but inside the paid period, and not past grace and not paused", () => {
  it("active has standing; cancelled inside the paid period keeps it; after it, none", () => {
    expect(hasStanding({ ...base })).toEqual({ standing: true, reason: "Active" });
    expect(
      hasStanding({ ...base, cancelled_at: "2026-03-05", undo_cancellation_until: "2026-03-31" }).standing,
    ).toBe(true);
    expect(
      hasStanding({ ...base, cancelled_at: "2026-02-05", undo_cancellation_until: "2026-03-10" }),
    ).toEqual({
      standing: false,
      reason: "Cancelled",
    });
  });

  it("in grace keeps standing until grace is over; paused now has none, a future pause does not remove it", () => {
    expect(hasStanding({ ...base, grace_period_ends_at: "2026-03-11" }).standing).toBe(true);
    expect(hasStanding({ ...base, grace_period_ends_at: "2026-03-10" }).standing).toBe(false);
    expect(hasStanding({ ...base, pause_start_at: "2026-03-01", pause_end_at: "2026-03-20" }).standing).toBe(
      false,
    );
    expect(hasStanding({ ...base, pause_start_at: "2026-04-01", pause_end_at: "2026-04-20" }).standing).toBe(
      true,
    );
  });

  it("not started or first payment failed: none; PIF ends at pif_ends_at", () => {
    expect(hasStanding({ ...base, upcoming_state: "upcoming" }).standing).toBe(false);
    expect(hasStanding({ ...base, upcoming_state: "failed" }).reason).toBe("First payment failed");
    expect(hasStanding({ ...base, billing_frequency: "one_off", pif_ends_at: "2026-03-10" }).standing).toBe(
      false,
    );
    expect(hasStanding({ ...base, billing_frequency: "one_off", pif_ends_at: "2026-03-11" }).standing).toBe(
      true,
    );
  });
});

describe("derived states: properties", () => {
  const day = fc.integer({ min: -40, max: 40 }).map((n) => {
    const d = new Date(Date.UTC(2026, 2, 10 + n));
    return d.toISOString().slice(0, 10);
  });
  const facts = fc.record({
    pause: fc.option(fc.tuple(day, fc.integer({ min: 1, max: 30 }))),
    cancelled_at: fc.option(day),
    undo_cancellation_until: fc.option(day),
    grace_period_ends_at: fc.option(day),
    upcoming_state: fc.option(fc.constantFrom("upcoming" as const, "failed" as const)),
    billing_frequency: fc.constantFrom("monthly" as const, "weekly" as const, "one_off" as const),
  });

  it("a live pay-in-full membership whose transfer has not arrived is awaiting it: not active, amber, no doors", () => {
    const owing = state({ billing_frequency: "one_off", pif_ends_at: "2026-06-10", balance_owing: 29900 });
    expect(owing).toMatchObject({ awaiting_transfer: true, active: false, card_colour: "amber" });
    expect(owing.door).toEqual({ standing: false, reason: "Pay-in-full payment not received" });
    const received = state({ billing_frequency: "one_off", pif_ends_at: "2026-06-10", balance_owing: 0 });
    expect(received).toMatchObject({ awaiting_transfer: false, active: true, card_colour: "green" });
    // Ended or cancelled: not awaiting anything.
    expect(
      state({ billing_frequency: "one_off", pif_ends_at: "2026-03-10", balance_owing: 29900 })
        .awaiting_transfer,
    ).toBe(false);
    expect(
      state({
        billing_frequency: "one_off",
        pif_ends_at: "2026-06-10",
        balance_owing: 29900,
        cancelled_at: "2026-03-05",
        undo_cancellation_until: "2026-03-31",
      }).awaiting_transfer,
    ).toBe(false);
  });

  it("exactly one colour; active is green; red only when cancelled; no standing while paused or past grace", () => {
    fc.assert(
      fc.property(facts, (f) => {
        const input: SubscriptionFacts = {
          ...base,
          billing_frequency: f.billing_frequency,
          pause_start_at: f.pause ? f.pause[0] : null,
          pause_end_at: f.pause
            ? new Date(Date.parse(`${f.pause[0]}T00:00:00Z`) + f.pause[1] * 86_400_000)
                .toISOString()
                .slice(0, 10)
            : null,
          cancelled_at: f.cancelled_at,
          undo_cancellation_until: f.undo_cancellation_until,
          grace_period_ends_at: f.grace_period_ends_at,
          upcoming_state: f.upcoming_state,
        };
        const d = deriveSubscriptionState(input);
        if (d.active) expect(d.card_colour).toBe("green");
        if (d.card_colour === "red") expect(d.cancelled).toBe(true);
        if (d.paused_now || d.grace_period_over || d.cancellation_taken_effect)
          expect(d.door.standing).toBe(false);
        if (d.active && f.billing_frequency !== "one_off")
          expect(d.door).toEqual({ standing: true, reason: "Active" });
        expect(d.start_now_offered).toBe(d.upcoming && f.billing_frequency !== "one_off");
        expect(d.upcoming).toBe(f.upcoming_state !== null && !d.cancelled);
      }),
    );
  });
});
