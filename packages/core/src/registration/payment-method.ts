/** Saving the member's card or bank account while they join (the payment-type layer does the saving). */
import type { Actor } from "../auth/actor";
import { config } from "../config";
import type { CardSetup } from "../contract/registration";
import { savePaymentTypeFromAkahu } from "../payment-type/bank-account";
import { savePaymentTypeFromSetupIntent, startCardSetup } from "../payment-type/card";
import { stripeProvider } from "../providers/stripe/index";
import { memberOrganisation, registrationGym } from "./state";

/**
 * Starts saving a card on the gym's connected Stripe account (a SetupIntent for the member's
 * Customer there). Locally, where Stripe is simulated, it also answers the simulator's card form,
 * which returns to `/card-details` as Stripe.js does.
 */
export async function startCard(actor: Actor): Promise<CardSetup> {
  const { gym } = await registrationGym(actor);
  const intent = await startCardSetup(actor, { gym_id: gym.gym_id });
  const stripe = stripeProvider();
  const simulated = stripe.mode === "simulated";
  return {
    setup_intent_id: intent.setup_intent_id,
    client_secret: intent.client_secret,
    stripe_account: intent.stripe_account,
    form_url:
      stripe.cardFormUrl?.({
        account: intent.stripe_account,
        setupIntentId: intent.setup_intent_id,
        clientSecret: intent.client_secret,
        returnUrl: `${config.joinUrl}/card-details`,
      }) ?? null,
    publishable_key: simulated ? null : (config.stripePublishableKey ?? null),
  };
}

/** The confirmed SetupIntent's card becomes the member's default payment type. */
export async function saveCard(actor: Actor, body: { setup_intent_id: string }) {
  const { gym } = await registrationGym(actor);
  return savePaymentTypeFromSetupIntent(actor, { gym_id: gym.gym_id, setup_intent_id: body.setup_intent_id });
}

/** The account the member picked from their synced Akahu accounts becomes their default payment type. */
export async function saveBankAccount(actor: Actor, body: { account_id: string }) {
  memberOrganisation(actor);
  return savePaymentTypeFromAkahu(actor, body);
}
