/**
 * Saving a card (the join site's card step): a SetupIntent on the gym's connected account for the
 * member's Customer there, and its succeeded card saved as their default payment type.
 */
import { z } from "zod";
import type { Actor } from "../auth/actor";
import { inGym } from "../auth/policy";
import { db } from "../db/service";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { getGym } from "../gym/service";
import { newId } from "../ids";
import { stripeProvider } from "../providers/stripe/index";
import type { StripeSetupIntentState } from "../providers/stripe/port";
import { getUser } from "../user/service";
import { parse } from "../validation";
import { presentPaymentType } from "./present";
import { addPaymentType, listPaymentTypeRecords, memberOrganisation } from "./service";

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
  const gym = await gymOf(actor, organisationId, gym_id);
  if (!gym.stripe_id)
    throw new ConflictError("This gym does not take card payments yet.", "stripe_not_connected");
  // The member's payment types, read while Stripe is asked.
  const [intent, records] = await Promise.all([
    stripeProvider().retrieveSetupIntent(gym.stripe_id, setup_intent_id),
    listPaymentTypeRecords(organisationId, actor.userId),
  ]);
  // The SetupIntent must be for this member's Customer on the account (one they started or use).
  const mine = records.some((p) => p.stripe_customer_id === intent.customer_id);
  if (!mine && !(await customerStartedBy(organisationId, actor.userId, intent.customer_id))) {
    throw new NotFoundError("setup intent");
  }
  const saved = await saveCard(organisationId, actor.userId, gym_id, gym.stripe_id, intent);
  return presentPaymentType(saved);
}

/** The gym as read with the session in this request (`Actor.gymRecords`), else read now. */
async function gymOf(actor: Actor, organisationId: string, gymId: string) {
  return (
    actor.gymRecords?.find((g) => g.organisation_id === organisationId && g.gym_id === gymId) ??
    (await getGym(organisationId, gymId))
  );
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
    card_fingerprint: card.fingerprint ?? undefined,
    stripe_account: account,
    gym_id: gymId,
  });
}

/** How long a started card setup may be saved: the join site's card step takes minutes, not a day. */
const SETUP_TTL_SECONDS = 24 * 60 * 60;

/**
 * Starts saving a card (the join site's card step): a SetupIntent on the gym's connected account
 * for the member's Customer there (reused when they have one). Answers what Stripe.js needs.
 */
export async function startCardSetup(actor: Actor, input: unknown) {
  const organisationId = memberOrganisation(actor);
  const { gym_id } = parse(z.object({ gym_id: setupIntentInput.shape.gym_id }), input);
  inGym(actor, gym_id);
  const gym = await gymOf(actor, organisationId, gym_id);
  if (!gym.stripe_id)
    throw new ConflictError("This gym does not take card payments yet.", "stripe_not_connected");
  const [user, records] = await Promise.all([
    getUser(actor.userId),
    listPaymentTypeRecords(organisationId, actor.userId),
  ]);
  const existing = records.find(
    (p) => p.type === "stripe_card" && p.stripe_account === gym.stripe_id && p.stripe_customer_id,
  );
  const intent = await stripeProvider().createSetupIntent(gym.stripe_id, {
    customer_id: existing?.stripe_customer_id ?? null,
    email: user.email,
    name: user.name,
    idempotencyKey: `setup-${actor.userId}-${newId()}`,
  });
  // Remembered in the table (cardSetupEntity): the save is answered by whichever instance gets it.
  await db()
    .entities.cardSetup.put({
      organisation_id: organisationId,
      stripe_customer_id: intent.customer_id,
      user_id: actor.userId,
      expires_at: Math.floor(Date.now() / 1000) + SETUP_TTL_SECONDS,
    })
    .go();
  return { ...intent, stripe_account: gym.stripe_id };
}

async function customerStartedBy(organisationId: string, userId: string, customerId: string) {
  const { data } = await db()
    .entities.cardSetup.get({ organisation_id: organisationId, stripe_customer_id: customerId })
    .go();
  return !!data && data.user_id === userId && data.expires_at > Date.now() / 1000;
}
