/**
 * Who an email to a member goes to, read when it is sent (issue 39, docs/communications.md "One
 * source for a person's email and name"): the user's login email and name as they are now. The
 * copies on a subscription or payment (`member_email`, `member_name`) are snapshots for lists;
 * after an email change they name the old address, so an email never goes to them. The snapshot
 * is used only when the user no longer exists.
 */
import { getUserOrNull } from "./service";

export interface Recipient {
  email: string;
  name: string;
}

export async function memberRecipient(
  userId: string,
  snapshot: { member_email: string; member_name: string },
): Promise<Recipient> {
  const user = await getUserOrNull(userId);
  return user
    ? { email: user.email, name: user.name }
    : { email: snapshot.member_email, name: snapshot.member_name };
}
