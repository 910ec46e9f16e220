/**
 * One card is one payment method (tour: a member who pressed Back mid-way and saved Visa 4242 again
 * saw "Visa •••• 4242" twice). Stripe makes a new PaymentMethod for every SetupIntent, even for the
 * same card; its `card.fingerprint` says which card it is (the same on one account, whatever the
 * customer). Saving a card the member already has replaces the older one: one card, the newest
 * PaymentMethod, the default.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../tests/support/api";
import { addMember, type MoneyWorld, moneyWorld, worldMember } from "../../../../tests/support/money";
import type { Actor } from "../auth/actor";
import { stripeProvider } from "../providers/stripe/index";
import { savePaymentTypeFromSetupIntent, startCardSetup } from "./card";
import { listPaymentTypeRecords } from "./service";

useTestApi();
let world: MoneyWorld;

beforeAll(async () => {
  world = await moneyWorld({ name: "Same Card Gyms" });
});

function memberActor(userId: string): Actor {
  return worldMember(world, userId);
}

/** A card typed into the card form and saved, as the join site does. */
async function saveCard(actor: Actor, number: string) {
  const stripe = stripeProvider();
  const intent = await startCardSetup(actor, { gym_id: world.gym_id });
  if (!stripe.confirmSimulatedCard) throw new Error("the simulated Stripe adapter is needed");
  await stripe.confirmSimulatedCard(intent.stripe_account, intent.setup_intent_id, { number });
  return savePaymentTypeFromSetupIntent(actor, {
    gym_id: world.gym_id,
    setup_intent_id: intent.setup_intent_id,
  });
}

describe("saving a card the member already has", () => {
  it("keeps one card: the newest save, the default; another card is a second one", async () => {
    const member = await addMember(world, "Dana Double");
    const actor = memberActor(member.user_id);
    const first = await saveCard(actor, "4242424242424242");
    const again = await saveCard(actor, "4242424242424242");
    const cards = await listPaymentTypeRecords(world.organisation_id, member.user_id, { consistent: true });
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ payment_type_id: again.id, is_default: true, last_four: "4242" });
    expect(again.id).not.toBe(first.id);

    const other = await saveCard(actor, "5555555555554444");
    const now = await listPaymentTypeRecords(world.organisation_id, member.user_id, { consistent: true });
    expect(now.map((c) => c.last_four).sort()).toEqual(["4242", "4444"]);
    expect(now.find((c) => c.is_default)?.payment_type_id).toBe(other.id);
  });
});
