/**
 * Saving a bank account: one of the member's Akahu accounts (their enduring consent,
 * bank-connection.ts) becomes their default payment type.
 */
import { z } from "zod";
import type { Actor } from "../auth/actor";
import { db } from "../db/service";
import { ConflictError, ValidationError } from "../errors";
import { appFor } from "../gym/akahu-app";
import { akahuProvider } from "../providers/akahu/index";
import { parse } from "../validation";
import { memberAkahuConnection } from "./bank-connection";
import { maskAccountNumber, presentPaymentType } from "./present";
import { addPaymentType, listPaymentTypeRecords, memberOrganisation } from "./service";

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
  // The member's payment types need nothing from the connection: read beside it.
  const [connection, existing] = await Promise.all([
    memberAkahuConnection(organisationId, actor.userId),
    listPaymentTypeRecords(organisationId, actor.userId),
  ]);
  if (!connection) throw new ConflictError("Connect your bank first.", "akahu_not_connected");
  const account = (connection.accounts ?? []).find((a) => a.id === account_id);
  if (!account) throw ValidationError.field("account_id", "Choose one of your connected accounts.");
  // Earlier bank payment types were consented under the old consent: a new one supersedes them.
  await Promise.all(
    existing
      .filter((old) => old.type === "bank_account" && old.status === "reauthenticate")
      .map((old) =>
        db()
          .entities.paymentType.patch({
            organisation_id: organisationId,
            user_id: actor.userId,
            payment_type_id: old.payment_type_id,
          })
          .set({ status: "revoked" })
          .add({ version: 1 })
          .go(),
      ),
  );
  const app = await appFor(organisationId, connection.gym_id, actor.gymRecords);
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
