/**
 * The one case in which staff change an account's login email (or its name): a member whose
 * address was typed wrong at the desk, before the person ever used the account. The account must
 * belong to this organisation alone (no role anywhere else), have no password and never have
 * passed a sign-in code. Anything else is the person's to change (docs/access-control.md).
 */
import { moveLoginEmail } from "./login-email";
import { rolesOfUser } from "./roles";
import type { getUserOrNull } from "./service";

type UserRecord = NonNullable<Awaited<ReturnType<typeof getUserOrNull>>>;

export async function deskCorrectable(organisationId: string, user: UserRecord): Promise<boolean> {
  if (user.password_hash || user.email_verified_at) return false;
  const roles = await rolesOfUser(user.user_id);
  return roles.every((role) => role.organisation_id === organisationId);
}

export async function correctAccount(user: UserRecord, to: { name: string; email: string }) {
  await moveLoginEmail(user, to.email, { name: to.name });
}
