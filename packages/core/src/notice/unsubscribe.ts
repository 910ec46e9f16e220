/**
 * `POST /api/unsubscribe?token=…` (docs/communications.md "Preferences"): the one-click
 * unsubscribe of an optional email (RFC 8058). Turns the member's `email_notifications_enabled`
 * off, without signing in; idempotent. Receipts, sign-in codes and required notices still come.
 */
import { db } from "../db/service";
import { NotFoundError } from "../errors";
import { getUserOrNull } from "../user/service";
import { userOfUnsubscribeToken } from "./unsubscribe-token";

export async function unsubscribe(
  token: string | undefined,
): Promise<{ email_notifications_enabled: false }> {
  const userId = token ? userOfUnsubscribeToken(token) : null;
  if (!userId || !(await getUserOrNull(userId))) throw new NotFoundError("unsubscribe link");
  await db().entities.user.patch({ user_id: userId }).set({ email_notifications_enabled: false }).go();
  return { email_notifications_enabled: false };
}
