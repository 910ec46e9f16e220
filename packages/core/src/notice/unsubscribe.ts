/**
 * `POST /api/unsubscribe?token=…` (docs/communications.md "Preferences"): the one-click
 * unsubscribe of an optional email (RFC 8058). Turns the member's `email_notifications_enabled`
 * off, without signing in; idempotent. The switch is kept per organisation (user/profile.ts); the
 * token names the person, so it turns optional emails off at every organisation they belong to
 * (the safe reading of "stop these emails"). Receipts, sign-in codes and required notices still come.
 */
import { NotFoundError } from "../errors";
import { saveProfile } from "../user/profile";
import { rolesOfUser } from "../user/roles";
import { getUserOrNull } from "../user/service";
import { userOfUnsubscribeToken } from "./unsubscribe-token";

export async function unsubscribe(
  token: string | undefined,
): Promise<{ email_notifications_enabled: false }> {
  const userId = token ? userOfUnsubscribeToken(token) : null;
  if (!userId || !(await getUserOrNull(userId))) throw new NotFoundError("unsubscribe link");
  const roles = await rolesOfUser(userId);
  await Promise.all(
    roles.map((role) => saveProfile(role.organisation_id, userId, { email_notifications_enabled: false })),
  );
  return { email_notifications_enabled: false };
}
