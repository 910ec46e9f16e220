/**
 * Who started a card setup is a record, not process memory (issue 39 item 3): on Lambda the save
 * (`POST /api/me/payment-types/card`) is usually answered by another instance than the start
 * (`POST /api/me/payment-types/card/setup`). Each step here runs in a fresh module state, as a new
 * instance would.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { useTestApi } from "../../../../tests/support/api";
import { addMember, type MoneyWorld, moneyWorld, worldMember } from "../../../../tests/support/money";
import type { Actor } from "../auth/actor";
import { stripeProvider } from "../providers/stripe/index";

useTestApi();
let world: MoneyWorld;

beforeAll(async () => {
  world = await moneyWorld({ name: "Card Setup Gyms" });
});

/**
 * A new instance: every module loaded again, its providers installed as a Lambda's start-up does.
 * Stripe is outside every instance: they share this file's simulated Stripe (its state).
 */
async function freshInstance() {
  const stripe = stripeProvider();
  vi.resetModules();
  const { createCore } = await import("../core");
  const { localProviders } = await import("../simulators/index");
  createCore({ providers: { ...localProviders(), stripe: () => stripe } });
  return {
    card: await import("./card"),
    stripe,
    list: (await import("./service")).listPaymentTypeRecords,
  };
}

function memberActor(userId: string): Actor {
  return worldMember(world, userId);
}

/** Starts a setup on one instance and confirms the card on the simulated Stripe: the intent to save. */
async function startedSetup(actor: Actor) {
  const started = await freshInstance();
  const intent = await started.card.startCardSetup(actor, { gym_id: world.gym_id });
  if (!started.stripe.confirmSimulatedCard) throw new Error("the simulated Stripe adapter is needed");
  await started.stripe.confirmSimulatedCard(intent.stripe_account, intent.setup_intent_id, {
    number: "4242424242424242",
  });
  return intent;
}

describe("saving a card started on another instance", () => {
  it("the member who started the setup saves the card", async () => {
    const member = await addMember(world, "Sam Setup");
    const actor = memberActor(member.user_id);
    const intent = await startedSetup(actor);

    const saving = await freshInstance();
    const saved = await saving.card.savePaymentTypeFromSetupIntent(actor, {
      gym_id: world.gym_id,
      setup_intent_id: intent.setup_intent_id,
    });
    expect(saved).toMatchObject({ type: "stripe_card", last_four: "4242" });
    expect(await saving.list(world.organisation_id, member.user_id)).toHaveLength(1);
  });

  it("another member cannot save it (404), on any instance", async () => {
    const member = await addMember(world, "Owen Owner");
    const other = await addMember(world, "Ivy Interloper");
    const intent = await startedSetup(memberActor(member.user_id));

    const saving = await freshInstance();
    await expect(
      saving.card.savePaymentTypeFromSetupIntent(memberActor(other.user_id), {
        gym_id: world.gym_id,
        setup_intent_id: intent.setup_intent_id,
      }),
    ).rejects.toMatchObject({ status: 404 });
    expect(await saving.list(world.organisation_id, other.user_id)).toEqual([]);
  });
});
