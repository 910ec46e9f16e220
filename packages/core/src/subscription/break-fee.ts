/** An uncharged break fee is withdrawn when its cancellation is undone (subscription/operations/undo-cancellation.ts). */
import { db } from "../db/service";
import { ATTENTION_FIELDS, findPayment } from "../payment/store";

export async function cancelUpcomingPayment(organisationId: string, paymentId: string) {
  const payment = await findPayment(organisationId, paymentId);
  if (payment?.status !== "upcoming") return;
  await db()
    .entities.payment.patch({ organisation_id: organisationId, payment_id: paymentId })
    .set({ status: "cancelled", error_description: "The cancellation was undone." })
    .remove(["work_key", "work_sort", ...ATTENTION_FIELDS])
    .add({ version: 1 })
    .where((a, op) => `${op.eq(a.version, payment.version)} AND ${op.eq(a.status, "upcoming")}`)
    .go();
}
