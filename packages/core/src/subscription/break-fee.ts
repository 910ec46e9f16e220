/** An uncharged break fee is withdrawn when its cancellation is undone (subscription/operations/undo-cancellation.ts). */
import { db } from "../db/service";
import { ATTENTION_FIELDS, findPayment } from "../payment/store";
import { scheduledChanges } from "../rollup/money";
import { rollupItems } from "../rollup/writes";

export async function cancelUpcomingPayment(organisationId: string, paymentId: string) {
  const payment = await findPayment(organisationId, paymentId);
  if (payment?.status !== "upcoming") return;
  // With the scheduled-payment counters it was in (the expected-payments page's days ahead).
  await db()
    .transaction.write(({ payment: payments, rollup, memberMonth }) => [
      payments
        .patch({ organisation_id: organisationId, payment_id: paymentId })
        .set({ status: "cancelled", error_description: "The cancellation was undone." })
        .remove(["work_key", "work_sort", ...ATTENTION_FIELDS])
        .add({ version: 1 })
        .where((a, op) => `${op.eq(a.version, payment.version)} AND ${op.eq(a.status, "upcoming")}`)
        .commit(),
      ...rollupItems({ rollup, memberMonth }, ...scheduledChanges(payment, null)),
    ])
    .go();
}
