/**
 * A member's payment types: saved from a Stripe SetupIntent (a card on the gym's connected
 * account) or from an Akahu account (their enduring bank consent); one default, switched in one
 * transaction. Switching the default retries an owed balance at once. Saving a card is card.ts,
 * saving a bank account bank-account.ts; both add through `addPaymentType` here.
 */
import type { Actor } from "../auth/actor";
import { db } from "../db/service";
import { ConflictError, NotFoundError } from "../errors";
import { newId } from "../ids";
import { deliverCommitted, type OutboxEvent, outboxEvent, outboxItem } from "../outbox/outbox";
import { type PaymentTypeRecord, presentPaymentType } from "./present";

export type { PaymentTypeRecord } from "./present";

/** The organisation a member acts in (409 before they joined one). */
export function memberOrganisation(actor: Actor): string {
  if (!actor.organisationId) throw new ConflictError("Join a gym first.", "no_organisation");
  return actor.organisationId;
}

/** Every payment type of a member in an organisation (one Query), removed ones left out. */
export async function listPaymentTypeRecords(
  organisationId: string,
  userId: string,
  options: { consistent?: boolean } = {},
): Promise<PaymentTypeRecord[]> {
  const { data } = await db()
    .entities.paymentType.query.primary({ organisation_id: organisationId, user_id: userId })
    .go({ pages: "all", consistent: options.consistent });
  return data.filter((p) => p.status !== "removed");
}

export async function findPaymentType(
  organisationId: string,
  userId: string,
  paymentTypeId: string,
): Promise<PaymentTypeRecord | null> {
  const { data } = await db()
    .entities.paymentType.get({
      organisation_id: organisationId,
      user_id: userId,
      payment_type_id: paymentTypeId,
    })
    .go();
  return data && data.status !== "removed" ? data : null;
}

export async function defaultPaymentTypeOf(organisationId: string, userId: string) {
  return (await listPaymentTypeRecords(organisationId, userId)).find((p) => p.is_default) ?? null;
}

/** Several payment types by key in one BatchGet (the billing run reads a page's at once). */
export async function findPaymentTypes(
  keys: { organisation_id: string; user_id: string; payment_type_id: string }[],
): Promise<Map<string, PaymentTypeRecord>> {
  const unique = [...new Map(keys.map((k) => [k.payment_type_id, k])).values()];
  const out = new Map<string, PaymentTypeRecord>();
  if (!unique.length) return out;
  const { data } = await db().entities.paymentType.get(unique).go({ concurrency: 4 });
  for (const p of data) out.set(p.payment_type_id, p);
  return out;
}

/** The member's default claim as stored now (docs/billing.md "One default payment method"). */
async function readDefaultClaim(organisationId: string, userId: string) {
  const { data } = await db()
    .entities.paymentTypeDefault.get({ organisation_id: organisationId, user_id: userId })
    .go({ consistent: true });
  return data ?? null;
}

type DefaultClaim = Awaited<ReturnType<typeof readDefaultClaim>>;
type Tx = Parameters<Parameters<ReturnType<typeof db>["transaction"]["write"]>[0]>[0];

/**
 * The transaction items that make `paymentTypeId` the member's one default: the default claim
 * created (none read) or moved from the one read (conditional on it still naming that payment type
 * at that version), and every other default read unset (conditional on its version). Two saves or
 * switches at once both read the same claim: only one of them commits.
 */
function defaultItems(
  tx: Pick<Tx, "paymentType" | "paymentTypeDefault" | "outboxEvent">,
  organisationId: string,
  userId: string,
  paymentTypeId: string,
  claim: DefaultClaim,
  others: PaymentTypeRecord[],
  event: OutboxEvent<"default_payment_type_changed">,
) {
  const key = { organisation_id: organisationId, user_id: userId };
  return [
    // The change's reaction (the member's subscriptions take it, an owed balance is retried).
    outboxItem(tx, event),
    claim
      ? tx.paymentTypeDefault
          .patch(key)
          .set({ payment_type_id: paymentTypeId })
          .add({ version: 1 })
          .where(
            (a, op) =>
              `${op.eq(a.payment_type_id, claim.payment_type_id)} AND ${op.eq(a.version, claim.version)}`,
          )
          .commit()
      : tx.paymentTypeDefault.create({ ...key, payment_type_id: paymentTypeId }).commit(),
    ...others.map((p) =>
      tx.paymentType
        .patch({ ...key, payment_type_id: p.payment_type_id })
        .set({ is_default: false })
        .add({ version: 1 })
        .where((a, op) => op.eq(a.version, p.version))
        .commit(),
    ),
  ];
}

/** Attempts of a save or switch that lost a race to another (each re-reads what is there). */
const DEFAULT_ATTEMPTS = 5;

/**
 * Stores a new payment type and makes it the default in one transaction (the previous default,
 * if any, is unset and the default claim moved in the same write). A save that loses a race with
 * another (two first cards at once) reads again and becomes the default after it: both are kept,
 * exactly one is the default.
 */
export async function addPaymentType(
  organisationId: string,
  userId: string,
  values: Omit<
    PaymentTypeRecord,
    "organisation_id" | "user_id" | "payment_type_id" | "is_default" | "version" | "created_at" | "updated_at"
  >,
  options: { makeDefault?: boolean } = {},
): Promise<PaymentTypeRecord> {
  const makeDefault = options.makeDefault ?? true;
  const paymentTypeId = newId();
  const event = defaultChangedEvent(organisationId, userId, paymentTypeId);
  // Whether the saving transaction wrote the event (as the default): if so it is delivered below.
  let defaulted = false;
  for (let attempt = 0; ; attempt++) {
    // The claim first, then the list: a default made after the claim was read moves the claim,
    // so this write fails its condition and reads again (read together, the list could miss it).
    const claim = await readDefaultClaim(organisationId, userId);
    const existing = await listPaymentTypeRecords(organisationId, userId, { consistent: true });
    // One card is one payment type: saving the same Stripe payment method again (a double tap, a
    // phone retrying) answers the one saved. Two saves at once both write the default claim, so
    // the second fails its condition, reads again and finds the first here.
    const same = values.stripe_payment_method_id
      ? existing.find(
          (p) => p.stripe_payment_method_id === values.stripe_payment_method_id && p.status === "active",
        )
      : undefined;
    if (same) return same;
    // The same card saved again through another SetupIntent (Stripe makes a new PaymentMethod each
    // time; its fingerprint says which card it is): the new save replaces the older one, removed in
    // this transaction, and takes its place as the default if it was one.
    const replaced = values.card_fingerprint
      ? existing.filter(
          (p) =>
            p.type === "stripe_card" &&
            p.status === "active" &&
            p.card_fingerprint === values.card_fingerprint &&
            p.stripe_account === values.stripe_account,
        )
      : [];
    const gone = new Set(replaced.map((p) => p.payment_type_id));
    const defaults = existing.filter((p) => p.is_default && !gone.has(p.payment_type_id));
    const record = {
      ...values,
      organisation_id: organisationId,
      user_id: userId,
      payment_type_id: paymentTypeId,
      is_default: makeDefault || replaced.some((p) => p.is_default) || (!claim && defaults.length === 0),
    };
    const { canceled } = await db()
      .transaction.write((tx) => [
        tx.paymentType.create(record).commit(),
        ...(record.is_default
          ? defaultItems(tx, organisationId, userId, paymentTypeId, claim, defaults, event)
          : []),
        ...replaced.map((p) =>
          tx.paymentType
            .patch({ organisation_id: organisationId, user_id: userId, payment_type_id: p.payment_type_id })
            .set({ status: "removed", is_default: false })
            .add({ version: 1 })
            .where((a, op) => op.eq(a.version, p.version))
            .commit(),
        ),
      ])
      .go();
    if (!canceled) {
      defaulted = record.is_default;
      break;
    }
    if (attempt >= DEFAULT_ATTEMPTS - 1)
      throw new ConflictError("Your payment methods changed meanwhile. Please try again.");
  }
  const saved = await findPaymentType(organisationId, userId, paymentTypeId);
  if (!saved) throw new NotFoundError("payment type");
  // Delivered whenever it was written (its item is leased to this call: outbox.ts `inline`), not
  // by what is read back, which a switch made meanwhile may have changed.
  if (defaulted) await deliverCommitted({ ...event, held: saved });
  return saved;
}

/**
 * The outbox event of a new default (outbox/events.ts), written with it; the billing machinery
 * handles it (payment/consent.ts), so payment types do not import billing. Inline, `held` is the
 * payment type as saved.
 */
function defaultChangedEvent(organisationId: string, userId: string, paymentTypeId: string) {
  return outboxEvent("default_payment_type_changed", {
    organisation_id: organisationId,
    user_id: userId,
    payment_type_id: paymentTypeId,
  });
}

/**
 * `POST /api/me/payment-types/{id}/switch`: makes one of the member's payment types the default.
 * If they owe a balance, it is retried at once with the new method (the billing hook).
 */
export async function setDefaultPaymentType(actor: Actor, paymentTypeId: string) {
  const organisationId = memberOrganisation(actor);
  return presentPaymentType(await switchDefaultPaymentType(organisationId, actor.userId, paymentTypeId));
}

export async function switchDefaultPaymentType(
  organisationId: string,
  userId: string,
  paymentTypeId: string,
) {
  for (let attempt = 0; ; attempt++) {
    // The claim first, then the list (as addPaymentType).
    const claim = await readDefaultClaim(organisationId, userId);
    const types = await listPaymentTypeRecords(organisationId, userId, { consistent: true });
    const next = types.find((p) => p.payment_type_id === paymentTypeId);
    if (!next) throw new NotFoundError("payment type");
    if (next.status !== "active") {
      throw new ConflictError(
        "This payment method needs to be connected again before it can be used.",
        "payment_type_inactive",
      );
    }
    const others = types.filter((p) => p.is_default && p.payment_type_id !== paymentTypeId);
    // Already the default (chosen again, or by a switch sent at the same moment that won): nothing
    // changes, so nothing is retried; a balance is retried by the switch that made it the default.
    if (next.is_default && !others.length) return next;
    const event = defaultChangedEvent(organisationId, userId, paymentTypeId);
    const { canceled } = await db()
      .transaction.write((tx) => [
        tx.paymentType
          .patch({ organisation_id: organisationId, user_id: userId, payment_type_id: paymentTypeId })
          .set({ is_default: true })
          .add({ version: 1 })
          .where((a, op) => op.eq(a.version, next.version))
          .commit(),
        ...defaultItems(tx, organisationId, userId, paymentTypeId, claim, others, event),
      ])
      .go();
    if (!canceled) {
      const saved = { ...next, is_default: true, version: next.version + 1 };
      await deliverCommitted({ ...event, held: saved });
      return saved;
    }
    if (attempt >= DEFAULT_ATTEMPTS - 1)
      throw new ConflictError("Your payment methods changed meanwhile. Please try again.");
  }
}

/** The member's payment types for their pages. */
export async function myPaymentTypes(actor: Actor) {
  const organisationId = memberOrganisation(actor);
  return (await listPaymentTypeRecords(organisationId, actor.userId)).map(presentPaymentType);
}
