/**
 * A member's payment types: saved from a Stripe SetupIntent (a card on the gym's connected
 * account) or from an Akahu account (their enduring bank consent); one default, switched in one
 * transaction. Switching the default retries an owed balance at once.
 */
import { z } from "zod";
import type { Actor } from "../auth/actor";
import { inGym } from "../auth/policy";
import { db } from "../db/service";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { appFor } from "../gym/akahu-app";
import { getGym } from "../gym/service";
import { newId } from "../ids";
import { akahuProvider } from "../providers/akahu/index";
import { stripeProvider } from "../providers/stripe/index";
import type { StripeSetupIntentState } from "../providers/stripe/port";
import { getUser } from "../user/service";
import { parse } from "../validation";
import { memberAkahuConnection } from "./bank-connection";
import { maskAccountNumber, type PaymentTypeRecord, presentPaymentType } from "./present";

export type { PaymentTypeRecord } from "./present";

function memberOrganisation(actor: Actor): string {
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
  tx: Pick<Tx, "paymentType" | "paymentTypeDefault">,
  organisationId: string,
  userId: string,
  paymentTypeId: string,
  claim: DefaultClaim,
  others: PaymentTypeRecord[],
) {
  const key = { organisation_id: organisationId, user_id: userId };
  return [
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
    const defaults = existing.filter((p) => p.is_default);
    const record = {
      ...values,
      organisation_id: organisationId,
      user_id: userId,
      payment_type_id: paymentTypeId,
      is_default: makeDefault || (!claim && defaults.length === 0),
    };
    const { canceled } = await db()
      .transaction.write((tx) => [
        tx.paymentType.create(record).commit(),
        ...(record.is_default
          ? defaultItems(tx, organisationId, userId, paymentTypeId, claim, defaults)
          : []),
      ])
      .go();
    if (!canceled) break;
    if (attempt >= DEFAULT_ATTEMPTS - 1)
      throw new ConflictError("Your payment methods changed meanwhile. Please try again.");
  }
  const saved = await findPaymentType(organisationId, userId, paymentTypeId);
  if (!saved) throw new NotFoundError("payment type");
  if (saved.is_default) await afterDefaultChanged(organisationId, userId, saved);
  return saved;
}

// Hooks the billing machinery registers (kept as hooks so payment types do not import billing).
type DefaultChangedHook = (
  organisationId: string,
  userId: string,
  paymentType: PaymentTypeRecord,
) => Promise<void>;
const defaultChangedHooks: DefaultChangedHook[] = [];
export function onDefaultPaymentTypeChanged(hook: DefaultChangedHook) {
  defaultChangedHooks.push(hook);
}
async function afterDefaultChanged(organisationId: string, userId: string, paymentType: PaymentTypeRecord) {
  for (const hook of defaultChangedHooks) await hook(organisationId, userId, paymentType);
}

export const setupIntentInput = z.object({
  gym_id: z.string({ error: "Value is required" }).trim().min(1, "Value is required").max(64),
  setup_intent_id: z.string({ error: "Value is required" }).trim().min(1, "Value is required").max(255),
});

/**
 * A card saved with a SetupIntent on the gym's connected account becomes the member's default
 * payment type. The SetupIntent must have succeeded and belong to this member (its metadata).
 */
export async function savePaymentTypeFromSetupIntent(actor: Actor, input: unknown) {
  const organisationId = memberOrganisation(actor);
  const { gym_id, setup_intent_id } = parse(setupIntentInput, input);
  inGym(actor, gym_id);
  const gym = await getGym(organisationId, gym_id);
  if (!gym.stripe_id)
    throw new ConflictError("This gym does not take card payments yet.", "stripe_not_connected");
  const intent = await stripeProvider().retrieveSetupIntent(gym.stripe_id, setup_intent_id);
  // The SetupIntent must be for this member's Customer on the account (one they started or use).
  const mine = (await listPaymentTypeRecords(organisationId, actor.userId)).some(
    (p) => p.stripe_customer_id === intent.customer_id,
  );
  if (!mine && !(await customerStartedBy(organisationId, actor.userId, intent.customer_id))) {
    throw new NotFoundError("setup intent");
  }
  const saved = await saveCard(organisationId, actor.userId, gym_id, gym.stripe_id, intent);
  return presentPaymentType(saved);
}

/** Saves a succeeded SetupIntent's card as the member's default payment type (also seeding and tests). */
export async function saveCard(
  organisationId: string,
  userId: string,
  gymId: string,
  account: string,
  intent: StripeSetupIntentState,
) {
  const card = intent.card;
  if (intent.status !== "succeeded" || !intent.payment_method_id || !card) {
    throw ValidationError.field("setup_intent_id", "The card could not be saved. Please try again.");
  }
  return addPaymentType(organisationId, userId, {
    type: "stripe_card",
    status: "active",
    card_type: card.brand,
    exp_month: card.exp_month,
    exp_year: card.exp_year,
    last_four: card.last4,
    country: card.country ?? undefined,
    stripe_customer_id: intent.customer_id,
    stripe_payment_method_id: intent.payment_method_id,
    stripe_account: account,
    gym_id: gymId,
  });
}

const setupStarted = new Map<string, string>();
/**
 * Starts saving a card (the join site's card step): a SetupIntent on the gym's connected account
 * for the member's Customer there (reused when they have one). Answers what Stripe.js needs.
 */
export async function startCardSetup(actor: Actor, input: unknown) {
  const organisationId = memberOrganisation(actor);
  const { gym_id } = parse(z.object({ gym_id: setupIntentInput.shape.gym_id }), input);
  inGym(actor, gym_id);
  const gym = await getGym(organisationId, gym_id);
  if (!gym.stripe_id)
    throw new ConflictError("This gym does not take card payments yet.", "stripe_not_connected");
  const user = await getUser(actor.userId);
  const existing = (await listPaymentTypeRecords(organisationId, actor.userId)).find(
    (p) => p.type === "stripe_card" && p.stripe_account === gym.stripe_id && p.stripe_customer_id,
  );
  const intent = await stripeProvider().createSetupIntent(gym.stripe_id, {
    customer_id: existing?.stripe_customer_id ?? null,
    email: user.email,
    name: user.name,
    idempotencyKey: `setup-${actor.userId}-${newId()}`,
  });
  setupStarted.set(`${organisationId}#${intent.customer_id}`, actor.userId);
  return { ...intent, stripe_account: gym.stripe_id };
}

async function customerStartedBy(organisationId: string, userId: string, customerId: string) {
  return setupStarted.get(`${organisationId}#${customerId}`) === userId;
}

export const akahuAccountInput = z.object({
  account_id: z.string({ error: "Value is required" }).trim().min(1, "Value is required").max(128),
});

/**
 * One of the member's Akahu accounts (from their connection's last sync) becomes their default
 * payment type. A new consent also clears any "reauthenticate" on their bank payment types and
 * releases payments that waited for it (the billing hook does that).
 */
export async function savePaymentTypeFromAkahu(actor: Actor, input: unknown) {
  const organisationId = memberOrganisation(actor);
  const { account_id } = parse(akahuAccountInput, input);
  const connection = await memberAkahuConnection(organisationId, actor.userId);
  if (!connection) throw new ConflictError("Connect your bank first.", "akahu_not_connected");
  const account = (connection.accounts ?? []).find((a) => a.id === account_id);
  if (!account) throw ValidationError.field("account_id", "Choose one of your connected accounts.");
  // Earlier bank payment types were consented under the old consent: a new one supersedes them.
  for (const old of await listPaymentTypeRecords(organisationId, actor.userId)) {
    if (old.type === "bank_account" && old.status === "reauthenticate") {
      await db()
        .entities.paymentType.patch({
          organisation_id: organisationId,
          user_id: actor.userId,
          payment_type_id: old.payment_type_id,
        })
        .set({ status: "revoked" })
        .add({ version: 1 })
        .go();
    }
  }
  const app = await appFor(organisationId, connection.gym_id);
  await akahuProvider()
    .subscribeWebhooks(app, connection.token, { webhook_type: "PAYMENT", state: organisationId })
    .catch(() => undefined);
  const saved = await addPaymentType(organisationId, actor.userId, {
    type: "bank_account",
    status: "active",
    account_number: maskAccountNumber(account.formatted_account),
    name: account.name,
    meta: {
      akahu_account_id: account.id,
      bank: account.connection ?? null,
      gym_id: connection.gym_id,
      consented_at: connection.connected_at,
    },
    gym_id: connection.gym_id,
  });
  return presentPaymentType(saved);
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
    const { canceled } = await db()
      .transaction.write((tx) => [
        tx.paymentType
          .patch({ organisation_id: organisationId, user_id: userId, payment_type_id: paymentTypeId })
          .set({ is_default: true })
          .add({ version: 1 })
          .where((a, op) => op.eq(a.version, next.version))
          .commit(),
        ...defaultItems(tx, organisationId, userId, paymentTypeId, claim, others),
      ])
      .go();
    if (!canceled) {
      const saved = { ...next, is_default: true, version: next.version + 1 };
      await afterDefaultChanged(organisationId, userId, saved);
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
