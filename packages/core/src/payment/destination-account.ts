/**
 * A gym's destination account: the bank account members' bank payments are paid into (one per
 * gym, kept on the gym record). Changing its number is an event: the layers above that react
 * (bank payers consent again, payment/consent.ts) subscribe through `onDestinationAccountChanged`,
 * wired in core.ts, so this file imports nothing above the ledger.
 */
import type { Actor } from "../auth/actor";
import { currentOrganisation } from "../auth/policy";
import { destinationAccountInput } from "../contract/gym";
import { NotFoundError } from "../errors";
import { getGym } from "../gym/service";
import { mayManage, patchGym } from "../gym/settings";
import { newId } from "../ids";
import { parse } from "../validation";

export interface DestinationAccountChanged {
  organisationId: string;
  gymId: string;
  gymName: string;
}
type Listener = (event: DestinationAccountChanged) => Promise<void>;
const destinationChanged: Listener[] = [];

/** Subscribes to a gym's destination account number changing (core.ts wires the subscribers). */
export function onDestinationAccountChanged(listener: Listener) {
  destinationChanged.push(listener);
}

/** The destination account is one per gym; `new` creates it, otherwise the id must be the gym's. */
export async function putDestinationAccount(actor: Actor, gymId: string, accountId: string, input: unknown) {
  mayManage(actor, gymId);
  const gym = await getGym(currentOrganisation(actor), gymId);
  const current = gym.destination_account?.account_id;
  if (current ? accountId !== current : accountId !== "new") throw new NotFoundError("destination account");
  const values = parse(destinationAccountInput, input);
  const saved = await patchGym(actor, gymId, {
    destination_account: { account_id: current ?? newId(), ...values, updated_at: new Date().toISOString() },
  });
  const before = gym.destination_account?.bank_account_number?.replace(/\D/g, "");
  if (before && before !== values.bank_account_number.replace(/\D/g, "")) {
    // Members' bank consents name the old account: they must consent again before paying by bank
    // (payment/consent.ts subscribes, wired in core.ts).
    for (const listener of destinationChanged)
      await listener({ organisationId: currentOrganisation(actor), gymId, gymName: gym.name });
  }
  return saved;
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
