/**
 * The months an organisation has payments due in (entity.ts `paymentMonthEntity`): the partitions
 * of the list index (gsi5) the staff list walks, newest first (list.ts).
 *
 * Every write that creates payments calls `notePaymentMonths` before its transaction: a month is
 * named before any payment due in it exists (a crash between leaves a named month that reads as
 * empty, never a payment the list cannot reach). The put is idempotent; a process remembers the
 * months it has named (per table), so a billing run names each month once, not once per payment,
 * and the month item is no write hot spot.
 */
import { config } from "../config";
import { db } from "../db/service";

const named = new Set<string>();

/** The `YYYY-MM` of a civil date. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

/** Names the months these payments are due in (before the transaction that creates them). */
export async function notePaymentMonths(payments: readonly { organisation_id: string; due_on: string }[]) {
  const fresh = new Map<string, { organisation_id: string; month: string }>();
  for (const p of payments) {
    const item = { organisation_id: p.organisation_id, month: monthOf(p.due_on) };
    const id = `${config.tableName}#${item.organisation_id}#${item.month}`;
    if (!named.has(id)) fresh.set(id, item);
  }
  if (fresh.size === 0) return;
  await db()
    .entities.paymentMonth.put([...fresh.values()])
    .go();
  for (const id of fresh.keys()) named.add(id);
}

/**
 * The organisation's months between `oldest` and `newest` (either open), newest first (or oldest
 * first), at most `limit` of them (one Query), or every one (`limit` "all": every page).
 */
export async function paymentMonths(
  organisationId: string,
  range: { newest?: string; oldest?: string },
  limit: number | "all",
  order: "asc" | "desc" = "desc",
): Promise<string[]> {
  const q = db().entities.paymentMonth.query.primary({ organisation_id: organisationId });
  const bounded =
    range.newest && range.oldest
      ? q.between({ month: range.oldest }, { month: range.newest })
      : range.newest
        ? q.lte({ month: range.newest })
        : range.oldest
          ? q.gte({ month: range.oldest })
          : q;
  const { data } = await bounded.go(limit === "all" ? { order, pages: "all" } : { order, limit });
  return data.map((m) => m.month);
}
