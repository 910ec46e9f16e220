/**
 * A member's state (docs/members.md): a cancellation that has not taken effect yet reads
 * "cancelling" (the membership still runs to its last day), "cancelled" only once it has
 * (issue 34 tour item 7: "CANCELLED" while the member still came in).
 */
import { describe, expect, it } from "vitest";
import { memberStateLabels } from "../contract/labels";
import type { SubscriptionRecord } from "../subscription/store";
import { stateOf } from "./state";

const sub = (over: Partial<SubscriptionRecord>) =>
  ({
    subscription_id: "s",
    organisation_id: "o",
    start_date: "2026-10-01T11:00:00.000Z",
    billing_frequency: "weekly",
    payment_method: "stripe_card",
    cancelled_at: "2026-11-20T00:00:00.000Z",
    cancellation_effective_at: "2026-12-04T11:00:00.000Z", // 5 Dec in Auckland: the last day is 4 Dec
    ...over,
  }) as SubscriptionRecord;

describe("a member's state after a cancellation", () => {
  it("is 'Cancelling' until the last day has passed, then 'Cancelled'", () => {
    expect(stateOf(sub({}), new Date("2026-12-04T10:59:00.000Z"))).toBe("cancelling");
    expect(memberStateLabels.cancelling).toBe("Cancelling");
    expect(stateOf(sub({}), new Date("2026-12-04T11:00:00.000Z"))).toBe("cancelled");
  });
});
