/** Connecting a gym's Stripe account (Stripe Connect OAuth). */
import type { Actor } from "../auth/actor";
import { currentOrganisation } from "../auth/policy";
import { config } from "../config";
import { type Gym, stripeExchangeInput } from "../contract/gym";
import { linkProviderId, unlinkProviderId } from "../providers/links";
import { stripeProvider } from "../providers/stripe/index";
import { parse } from "../validation";
import { signConnectState, verifyConnectState } from "./connect-state";
import { getGym } from "./service";
import { mayManage, patchGym } from "./settings";

export const stripeRedirectUri = () => `${config.staffUrl}/stripe/callback`;

/** POST /api/gyms/{id}/stripe/redirect: the provider's page, with a signed ten-minute state. */
export async function startStripeConnect(actor: Actor, gymId: string) {
  mayManage(actor, gymId);
  await getGym(currentOrganisation(actor), gymId);
  const state = await signConnectState("stripe_connect", actor, gymId);
  return { url: await stripeProvider().connectUrl({ state, redirectUri: stripeRedirectUri() }) };
}

/** POST /api/stripe/exchange: checks the state, exchanges the code, stores the connected account. */
export async function finishStripeConnect(actor: Actor, input: unknown): Promise<Gym> {
  const { code, state } = parse(stripeExchangeInput, input);
  const claims = await verifyConnectState("stripe_connect", actor, state);
  mayManage(actor, claims.gym);
  const organisationId = currentOrganisation(actor);
  const gym = await getGym(organisationId, claims.gym);
  const account = await stripeProvider().exchangeConnectCode(code);
  if (gym.stripe_id && gym.stripe_id !== account.stripe_user_id)
    await unlinkProviderId("stripe_account", gym.stripe_id);
  await linkProviderId("stripe_account", account.stripe_user_id, {
    organisation_id: organisationId,
    gym_id: gym.gym_id,
  });
  return patchGym(actor, gym.gym_id, {
    stripe_id: account.stripe_user_id,
    stripe_livemode: account.livemode,
    stripe_connected_at: new Date().toISOString(),
  });
}
