/**
 * The payments settled in a period of Auckland days (docs/accounting.md "Which payments"): paid
 * (`sent`), dated by when they settled (`settled_at`, else when charged: the tax invoice's date).
 * Read from the organisation's payments by due date (ids sort by it), from SETTLE_LAG_DAYS before the
 * period to its end (a payment settles on or after its due day), filtered to `sent`.
 */
import { addDays, aucklandDate, type CivilDate } from "../billing/calendar";
import { monthlyPaymentsPage } from "../payment/list";
import type { PaymentRecord } from "../payment/store";

/** How long after its due day a payment may settle and still be found (a bank payment takes 1–3 days). */
export const SETTLE_LAG_DAYS = 31;

/** The Auckland day a paid payment settled: its tax invoice's date. */
export function settledOn(payment: Pick<PaymentRecord, "settled_at" | "charged_at" | "due_on">): CivilDate {
  const at = payment.settled_at ?? payment.charged_at;
  return at ? aucklandDate(new Date(at)) : payment.due_on;
}

export async function settledPayments(input: {
  organisationId: string;
  gymIds: string[] | null;
  from: CivilDate;
  to: CivilDate;
}): Promise<PaymentRecord[]> {
  const out: PaymentRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await monthlyPaymentsPage({
      organisationId: input.organisationId,
      gymIds: input.gymIds,
      filters: { status: "sent", from: addDays(input.from, -SETTLE_LAG_DAYS), to: input.to },
      cursor,
      perPage: 1_000,
      order: "asc",
      budget: 10_000,
    });
    for (const payment of page.items) {
      const day = settledOn(payment);
      if (day >= input.from && day <= input.to) out.push(payment);
    }
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return out;
}
