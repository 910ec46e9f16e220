/**
 * A transaction sent from its built parameters (ElectroDB's `transaction.write(...).params()`),
 * so the caller keeps the items exactly as written, timestamps included, and needs no read back
 * (`createUser`, register, a new subscription). Answers as ElectroDB's `go()` does: `canceled`,
 * and each item's cancellation `code` (ConditionalCheckFailed, TransactionConflict, None).
 */
import { TransactWriteCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { dynamo } from "./client";

export type TransactionParams = TransactWriteCommandInput;

export async function sendTransaction(
  params: TransactionParams,
): Promise<{ canceled: boolean; data: { code?: string }[] }> {
  try {
    await dynamo().send(new TransactWriteCommand(params));
    return { canceled: false, data: [] };
  } catch (error) {
    if ((error as { name?: string }).name !== "TransactionCanceledException") throw error;
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    return { canceled: true, data: reasons.map((reason) => ({ code: reason.Code })) };
  }
}

/** The item the transaction's `index`th request puts, as sent (parse it with its entity). */
export function putItem(params: TransactionParams, index: number): Record<string, unknown> | null {
  return (params.TransactItems?.[index]?.Put?.Item as Record<string, unknown> | undefined) ?? null;
}
