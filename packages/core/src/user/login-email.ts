/**
 * Moving an account's login email (docs/access-control.md "Whose account it is"). One
 * transaction: the user's email set (conditional on the address as read), the new address
 * claimed (`user_email`, a conditional create: taken means refused) and the old claim deleted, so
 * the old address is free again and the new one cannot be given to a second account.
 */
import { db } from "../db/service";
import { ConflictError } from "../errors";
import { normaliseEmail } from "./service";

export const EMAIL_TAKEN = "Another account already uses this email.";

export async function moveLoginEmail(
  user: { user_id: string; email: string },
  to: string,
  also: { name?: string } = {},
): Promise<void> {
  const email = normaliseEmail(to);
  if (email === user.email && !also.name) return;
  const { canceled } = await db()
    .transaction.write(({ user: users, userEmail }) => [
      ...(email === user.email
        ? []
        : [
            userEmail.create({ email, user_id: user.user_id }).commit(),
            userEmail.delete({ email: user.email }).commit(),
          ]),
      users
        .patch({ user_id: user.user_id })
        .set({ email, ...(also.name ? { name: also.name } : {}) })
        .where((attr, op) => op.eq(attr.email, user.email))
        .commit(),
    ])
    .go();
  if (canceled) throw new ConflictError(EMAIL_TAKEN, "email_taken");
}
