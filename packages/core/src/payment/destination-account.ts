/**
 * A gym's destination account: the bank account members' bank payments are paid into (one per
 * gym, kept on the gym record). Changing its number is an outbox event
 * (`destination_account_changed`, outbox/events.ts) written with the gym: its bank payers consent
 * again (payment/consent.ts, wired in core.ts), so this file imports nothing above the ledger.
 */
import type { Actor } from "../auth/actor";
import { currentOrganisation } from "../auth/policy";
import { destinationAccountInput } from "../contract/gym";
import { db } from "../db/service";
import { NotFoundError } from "../errors";
import { getGym } from "../gym/service";
import { mayManage, patchGym, readGym } from "../gym/settings";
import { newId } from "../ids";
import { deliverCommitted, outboxEvent, outboxItem } from "../outbox/outbox";
import { parse } from "../validation";

/** The destination account is one per gym; `new` creates it, otherwise the id must be the gym's. */
export async function putDestinationAccount(actor: Actor, gymId: string, accountId: string, input: unknown) {
  mayManage(actor, gymId);
  const gym = await getGym(currentOrganisation(actor), gymId);
  const current = gym.destination_account?.account_id;
  if (current ? accountId !== current : accountId !== "new") throw new NotFoundError("destination account");
  const values = parse(destinationAccountInput, input);
  const destination_account = {
    account_id: current ?? newId(),
    ...values,
    updated_at: new Date().toISOString(),
  };
  const before = gym.destination_account?.bank_account_number?.replace(/\D/g, "");
  if (!before || before === values.bank_account_number.replace(/\D/g, ""))
    return patchGym(actor, gymId, { destination_account });
  // Members' bank consents name the old account: they must consent again before paying by bank.
  // The reaction's event is written with the new account (payment/consent.ts handles it).
  const organisationId = currentOrganisation(actor);
  const event = outboxEvent("destination_account_changed", {
    organisation_id: organisationId,
    gym_id: gymId,
  });
  const { canceled } = await db()
    .transaction.write(({ gym: gyms, outboxEvent: outbox }) => [
      gyms.patch({ organisation_id: organisationId, gym_id: gymId }).set({ destination_account }).commit(),
      outboxItem({ outboxEvent: outbox }, event),
    ])
    .go();
  if (canceled) throw new NotFoundError("gym");
  await deliverCommitted(event);
  return readGym(actor, gymId);
}

/** The gym's destination account in full, for paying into it (billing); never sent to a browser. */
export async function destinationAccountOf(organisationId: string, gymId: string) {
  const gym = await getGym(organisationId, gymId);
  return gym.destination_account
    ? {
        id: gym.destination_account.account_id,
        name: gym.destination_account.name,
        bank_account_number: gym.destination_account.bank_account_number,
      }
    : null;
}
