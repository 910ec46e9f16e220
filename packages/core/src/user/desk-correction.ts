/**
 * The one case in which staff change an account's login email (or its name): a member whose
 * address was typed wrong at the desk, before the person ever used the account. The account must
 * belong to this organisation alone (no role anywhere else), hold no staff role, have no password
 * and never have passed a sign-in code. Anything else is the person's to change (docs/access-control.md).
 */
import { ConflictError, ValidationError } from "../errors";
import { EMAIL_TAKEN, moveLoginEmail } from "./login-email";
import { isStaffRole, rolesOfUser } from "./roles";
import type { getUserOrNull } from "./service";

type UserRecord = NonNullable<Awaited<ReturnType<typeof getUserOrNull>>>;

export async function deskCorrectable(organisationId: string, user: UserRecord): Promise<boolean> {
  if (user.password_hash || user.email_verified_at) return false;
  const roles = await rolesOfUser(user.user_id);
  // A staff account (even a pending one) is never corrected by the desk: its invitation is its own.
  return roles.every((role) => role.organisation_id === organisationId && !isStaffRole(role));
}

/** Moves the address (and name); an address another account uses answers 422 on `email`. */
export async function correctAccount(user: UserRecord, to: { name: string; email: string }) {
  try {
    await moveLoginEmail(user, to.email, { name: to.name });
  } catch (error) {
    if (error instanceof ConflictError) throw ValidationError.field("email", EMAIL_TAKEN);
    throw error;
  }
}
