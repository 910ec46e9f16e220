import { describe, expect, it } from "vitest";
import type { PaymentRecord } from "../payment/store";
import { latestPaymentOf } from "./service";
import type { SubscriptionRecord } from "./store";

const pay = (id: string, status: string, extra: Partial<PaymentRecord> = {}) =>
  ({ payment_id: id, status, due_on: "2026-11-24", ...extra }) as PaymentRecord;
const sub = (latest?: string) => ({ latest_payment_id: latest }) as SubscriptionRecord;

describe("the latest payment of a membership", () => {
  // Same-day ids share their time part: here the failed first payment sorts above the retry that paid it.
  const failed = pay("01KZZZ-first", "failed", {
    claimed_at: "2026-11-23T19:30:00.000Z",
    settled_at: undefined,
  });
  const retry = pay("01KAAA-retry", "sent", {
    claimed_at: "2026-11-23T19:31:00.000Z",
    settled_at: "2026-11-23T19:31:05.000Z",
  });
  const upcoming = pay("01KZZZ-next", "upcoming", { due_on: "2026-12-01" });

  it("is the one settlement recorded last, not the first in id order", () => {
    expect(latestPaymentOf(sub("01KAAA-retry"), [upcoming, failed, retry])?.payment_id).toBe("01KAAA-retry");
  });

  it("without a record, is the newest by when it settled or was claimed", () => {
    expect(latestPaymentOf(sub(), [upcoming, failed, retry])?.payment_id).toBe("01KAAA-retry");
    expect(latestPaymentOf(sub(), [upcoming])).toBeNull();
  });
});
