import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  balanceOwing,
  classifyDecline,
  debt,
  graceEndDate,
  graceEndsAt,
  isFailedPaymentStatus,
  isHardDecline,
  periodsOwing,
  retryDates,
} from "./dunning";

describe("grace", () => {
  it("counts from the failure's Auckland date, not the UTC date", () => {
    // 1 March 2026 05:00 NZDT is 28 February 16:00Z
    expect(graceEndDate(new Date("2026-02-28T16:00:00Z"), { value: 14, unit: "days" })).toBe("2026-03-15");
    expect(graceEndsAt(new Date("2026-02-28T16:00:00Z"), { value: 14, unit: "days" }).toISOString()).toBe(
      "2026-03-14T11:00:00.000Z",
    );
  });

  it("weeks are 7 days and months clamp to the month end", () => {
    expect(graceEndDate("2026-01-31", { value: 2, unit: "weeks" })).toBe("2026-02-14");
    expect(graceEndDate("2026-01-31", { value: 1, unit: "months" })).toBe("2026-02-28");
    expect(graceEndDate("2026-01-31", { value: 0, unit: "days" })).toBe("2026-01-31");
  });
});

describe("retries", () => {
  it("default 1, 3 and 5 days after the failure, only before grace ends", () => {
    expect(retryDates("2026-03-01", undefined, "2026-03-15")).toEqual([
      "2026-03-02",
      "2026-03-04",
      "2026-03-06",
    ]);
    expect(retryDates("2026-03-01", [1, 3, 5], "2026-03-06")).toEqual(["2026-03-02", "2026-03-04"]);
    expect(retryDates("2026-03-01", [5, 1, 1, 0], null)).toEqual(["2026-03-02", "2026-03-06"]);
    expect(
      retryDates("2026-03-01", [1, 3, 5], graceEndsAt("2026-03-01", { value: 3, unit: "days" })),
    ).toEqual(["2026-03-02"]);
  });
});

describe("declines", () => {
  it("hard: lost, stolen, expired card; account closed; consent revoked", () => {
    for (const c of [
      "lost_card",
      "stolen_card",
      "expired_card",
      "card_not_supported",
      "ACCOUNT_CLOSED",
      "CONSENT_REVOKED",
    ])
      expect(isHardDecline(c), c).toBe(true);
  });
  it("soft: insufficient funds, generic decline, processing error, bank limits and hours; unknown codes", () => {
    for (const c of [
      "insufficient_funds",
      "generic_decline",
      "processing_error",
      "INSUFFICIENT_FUNDS",
      "DAILY_LIMIT_EXCEEDED",
      "AFTER_HOURS",
      "something_new",
      null,
    ])
      expect(isHardDecline(c), String(c)).toBe(false);
    expect(classifyDecline("Lost_Card")).toMatchObject({ kind: "hard" });
  });
});

describe("debt", () => {
  const failed = (amount: number, at: string) => ({
    status: "failed",
    amount,
    is_retry: false,
    created_at: at,
  });
  it("failed periods add up; a failed retry adds nothing; a successful retry clears them", () => {
    const p = [
      failed(6000, "2026-03-01"),
      { status: "failed", amount: 6000, is_retry: true, created_at: "2026-03-02" },
    ];
    expect(debt(p)).toEqual({ balance_owing: 6000, periods_owing: 1 });
    const p2 = [...p, failed(6000, "2026-03-31")];
    expect(debt(p2)).toEqual({ balance_owing: 12000, periods_owing: 2 });
    const p3 = [...p2, { status: "sent", amount: 12000, is_retry: true, created_at: "2026-04-01" }];
    expect(debt(p3)).toEqual({ balance_owing: 0, periods_owing: 0 });
  });
  it("a manual payment pays the oldest period first; ordinary sent and upcoming payments do not count", () => {
    const p = [
      { status: "sent", amount: 6000, is_retry: false, created_at: "2026-01-31" },
      failed(6000, "2026-02-28"),
      failed(6000, "2026-03-31"),
      { status: "upcoming", amount: 6000, is_retry: false, created_at: "2026-04-01" },
      { status: "sent", amount: 7000, is_retry: false, settles_debt: true, created_at: "2026-04-02" },
    ];
    expect(balanceOwing(p)).toBe(5000);
    expect(periodsOwing(p)).toBe(1);
  });
  it("payments are taken in created_at order", () => {
    const retry = { status: "sent", amount: 6000, is_retry: true, created_at: "2026-03-03" };
    expect(debt([retry, failed(6000, "2026-03-01")])).toEqual({ balance_owing: 0, periods_owing: 0 });
  });
  it("spec: statuses other than sent, upcoming, pending_request, awaiting_payment are failed", () => {
    expect(["sent", "upcoming", "pending_request", "awaiting_payment"].map(isFailedPaymentStatus)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(isFailedPaymentStatus("declined")).toBe(true);
  });
});

describe("debt: properties", () => {
  const payment = fc.record({
    status: fc.constantFrom("sent", "failed", "declined", "upcoming", "pending_request", "awaiting_payment"),
    amount: fc.integer({ min: 0, max: 50_000 }),
    is_retry: fc.boolean(),
    settles_debt: fc.boolean(),
  });

  it("never negative, never more than the failed (or awaiting) regular payments, and a sent retry of the whole balance clears it", () => {
    fc.assert(
      fc.property(fc.array(payment, { maxLength: 12 }), (ps) => {
        const d = debt(ps);
        // docs/billing.md "Dunning → Debt": a charge awaiting payment (a transfer not yet
        // received) is owed like a failed one.
        const failedRegular = ps.filter(
          (p) =>
            !p.is_retry &&
            (isFailedPaymentStatus(p.status) || (p.status === "awaiting_payment" && !p.settles_debt)) &&
            p.amount > 0,
        );
        expect(d.balance_owing).toBeGreaterThanOrEqual(0);
        expect(d.balance_owing).toBeLessThanOrEqual(failedRegular.reduce((s, p) => s + p.amount, 0));
        expect(d.periods_owing).toBeLessThanOrEqual(failedRegular.length);
        expect(d.periods_owing === 0).toBe(d.balance_owing === 0);
        const cleared = debt([...ps, { status: "sent", amount: d.balance_owing, is_retry: true }]);
        expect(cleared).toEqual({ balance_owing: 0, periods_owing: 0 });
      }),
    );
  });

  it("retry dates are after the failure, ascending, and all start before grace ends", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -3, max: 60 }), { maxLength: 10 }),
        fc.integer({ min: 0, max: 60 }),
        (days, graceDays) => {
          const graceEnds = graceEndsAt("2026-03-25", { value: graceDays, unit: "days" });
          const dates = retryDates("2026-03-25", days, graceEnds);
          for (const [i, d] of dates.entries()) {
            expect(d > "2026-03-25").toBe(true);
            if (i > 0) expect(d > dates[i - 1]).toBe(true);
            expect(d < graceEndDate("2026-03-25", { value: graceDays, unit: "days" })).toBe(true);
          }
        },
      ),
    );
  });
});
