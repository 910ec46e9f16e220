/**
 * A small organisation for money tests and seeding: one gym connected to Stripe (simulated), with
 * a destination account and a Kisi place, a monthly price, and members with a saved card (a
 * Stripe test number through the simulated SetupIntent) or a bank account (a simulated Akahu
 * account kind). Everything is made through core's functions, as the app does.
 */
import type { Actor } from "../../packages/core/src/auth/actor";
import { encryptSecret } from "../../packages/core/src/crypto/secrets";
import { db } from "../../packages/core/src/db/service";
import { appFor } from "../../packages/core/src/gym/akahu-app";
import { createGym } from "../../packages/core/src/gym/service";
import { newId } from "../../packages/core/src/ids";
import { createOrganisation } from "../../packages/core/src/organisation/service";
import { storeAkahuConnection } from "../../packages/core/src/payment-type/bank-connection";
import { saveCard } from "../../packages/core/src/payment-type/card";
import { maskAccountNumber } from "../../packages/core/src/payment-type/present";
import { addPaymentType } from "../../packages/core/src/payment-type/service";
import { akahuProvider } from "../../packages/core/src/providers/akahu/index";
import { linkProviderId } from "../../packages/core/src/providers/links";
import { stripeProvider } from "../../packages/core/src/providers/stripe/index";
import { simulatedAccountsFor } from "../../packages/core/src/simulators/akahu-payments";
import { SIMULATED_KISI_PLACES } from "../../packages/core/src/simulators/kisi";
import { createSubscription } from "../../packages/core/src/subscription/service";
import { putRole } from "../../packages/core/src/user/roles";
import { createUser } from "../../packages/core/src/user/service";

export const KISI_KEY = "kisi_test_money_key";

export interface MoneyWorld {
  organisation_id: string;
  gym_id: string;
  gym_name: string;
  stripe_account: string;
  price_id: string;
  offering_id: string;
  place_id: string;
}

/** The world's organisation admin as a request's actor (core functions called directly). */
export function worldAdmin(world: MoneyWorld, userId = "admin"): Actor {
  return {
    userId,
    sessionId: "test",
    organisationId: world.organisation_id,
    gymId: world.gym_id,
    orgRole: "admin",
    gymRoles: [],
    memberGymIds: [],
    isStaff: true,
    gyms: [{ gym_id: world.gym_id, name: world.gym_name }],
    gymIds: [world.gym_id],
  };
}

/** A member of the world's gym as a request's actor. */
export function worldMember(world: MoneyWorld, userId: string): Actor {
  return {
    ...worldAdmin(world, userId),
    orgRole: "none",
    memberGymIds: [world.gym_id],
    isStaff: false,
  };
}

export async function moneyWorld(
  options: { name?: string; amount?: number; retryDays?: number[] } = {},
): Promise<MoneyWorld> {
  const org = await createOrganisation({ name: options.name ?? "Money Test Gyms" });
  const gym = await createGym({
    organisation_id: org.organisation_id,
    name: `${options.name ?? "Money Test"} Ponsonby`,
  });
  const stripeAccount = `acct_sim${newId().slice(-12)}`;
  const place = SIMULATED_KISI_PLACES[0];
  await db()
    .entities.organisation.patch({ organisation_id: org.organisation_id })
    .set({
      payment_retry_days: options.retryDays ?? [1, 3, 5],
      access_control: {
        integration_id: newId(),
        integration_type: "kisi",
        api_key_enc: encryptSecret(KISI_KEY, `organisation:${org.organisation_id}:kisi_api_key`),
        connected_at: new Date().toISOString(),
      },
    })
    .go();
  await db()
    .entities.gym.patch({ organisation_id: org.organisation_id, gym_id: gym.gym_id })
    .set({
      stripe_id: stripeAccount,
      stripe_livemode: false,
      stripe_connected_at: new Date().toISOString(),
      destination_account: {
        account_id: newId(),
        name: `${gym.name} Ltd`,
        bank_account_number: "12-3140-0171323-50",
        updated_at: new Date().toISOString(),
      },
      kisi_place: { place_id: place.id, name: place.name, linked_at: new Date().toISOString() },
    })
    .go();
  await linkProviderId("stripe_account", stripeAccount, {
    organisation_id: org.organisation_id,
    gym_id: gym.gym_id,
  });
  const { offering_id, price_id } = await addOffering(org.organisation_id, {
    name: "24/7 Membership",
    amount: options.amount ?? 6000,
  });
  return {
    organisation_id: org.organisation_id,
    gym_id: gym.gym_id,
    gym_name: gym.name,
    stripe_account: stripeAccount,
    price_id,
    offering_id,
    place_id: place.id,
  };
}

/** A member of the world's gym (a user and their member role). */
/** A 24/7 offering at every gym of the organisation with one monthly price. */
export async function addOffering(organisationId: string, input: { name: string; amount: number }) {
  const offering_id = newId();
  await db()
    .entities.offering.create({
      organisation_id: organisationId,
      offering_id,
      name: input.name,
      type: "24_7",
      all_gyms_access: true,
    })
    .go();
  const price_id = newId();
  await db()
    .entities.price.create({
      organisation_id: organisationId,
      price_id,
      offering_id,
      amount: input.amount,
      billing_frequency: "monthly",
      grouping_unique_identifier: newId(),
    })
    .go();
  return { offering_id, price_id };
}

export async function addMember(
  world: MoneyWorld,
  name: string,
  email = `${newId().toLowerCase()}@example.nz`,
) {
  const user = await createUser({ email, name, email_verified: true });
  await putRole({
    organisation_id: world.organisation_id,
    user_id: user.user_id,
    member_gym_ids: [world.gym_id],
  });
  return user;
}

/** Saves a card (a Stripe test number) for the member through the simulated SetupIntent flow. */
export async function addCard(
  world: MoneyWorld,
  user: { user_id: string; email: string; name: string },
  number: string,
) {
  const stripe = stripeProvider();
  const setup = await stripe.createSetupIntent(world.stripe_account, {
    email: user.email,
    name: user.name,
    idempotencyKey: `setup-${newId()}`,
  });
  if (!stripe.confirmSimulatedCard) throw new Error("the simulated Stripe adapter is needed");
  await stripe.confirmSimulatedCard(world.stripe_account, setup.setup_intent_id, { number });
  const state = await stripe.retrieveSetupIntent(world.stripe_account, setup.setup_intent_id);
  return saveCard(world.organisation_id, user.user_id, world.gym_id, world.stripe_account, state);
}

/** Connects a simulated bank (Akahu) for the member and saves one account kind as their payment type. */
export async function addBankAccount(
  world: MoneyWorld,
  user: { user_id: string },
  kind: "pays" | "lowfunds" | "closed" | "slow",
) {
  const token = `user_token_sim_${user.user_id}`;
  const accounts = simulatedAccountsFor(token);
  const account = accounts.find((a) => a.id.startsWith(`acc_sim_${kind}_`));
  if (!account) throw new Error(`no simulated ${kind} account`);
  await storeAkahuConnection({
    organisationId: world.organisation_id,
    userId: user.user_id,
    gymId: world.gym_id,
    token,
    accounts,
  });
  const app = await appFor(world.organisation_id, world.gym_id);
  await akahuProvider().subscribeWebhooks(app, token, {
    webhook_type: "PAYMENT",
    state: world.organisation_id,
  });
  return addPaymentType(world.organisation_id, user.user_id, {
    type: "bank_account",
    status: "active",
    account_number: maskAccountNumber(account.formatted_account),
    name: account.name,
    meta: { akahu_account_id: account.id, bank: account.connection, gym_id: world.gym_id },
    gym_id: world.gym_id,
  });
}

export async function subscribeMember(
  world: MoneyWorld,
  user: { user_id: string },
  input: { start_date?: string; billing_date?: string } = {},
) {
  return createSubscription({
    organisation_id: world.organisation_id,
    user_id: user.user_id,
    gym_id: world.gym_id,
    price_id: world.price_id,
    ...input,
  });
}
