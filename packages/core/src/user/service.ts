import { hashPassword } from "../crypto/password";
import { db } from "../db/service";
import { putItem, sendTransaction, type TransactionParams } from "../db/transact";
import { ConflictError, NotFoundError } from "../errors";
import { newId } from "../ids";

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(email: string) {
  const { data } = await db()
    .entities.user.query.byEmail({ email: normaliseEmail(email) })
    .go({ limit: 1 });
  return data[0] ?? null;
}

export async function getUserOrNull(userId: string) {
  const { data } = await db().entities.user.get({ user_id: userId }).go();
  return data;
}

export async function getUser(userId: string) {
  const user = await getUserOrNull(userId);
  if (!user) throw new NotFoundError("user");
  return user;
}

export async function createUser(input: {
  email: string;
  name: string;
  password?: string;
  email_verified?: boolean;
  /** The caller has just looked the address up and found no one (the claim below still decides). */
  checked?: boolean;
}) {
  const email = normaliseEmail(input.email);
  if (!input.checked && (await findUserByEmail(email)))
    throw new ConflictError("An account with that email already exists.", "email_taken");
  const user = await newUser(input);
  // The address is claimed in the same transaction (user/entity.ts userEmailEntity): of two
  // sign-ups with one new address at the same instant, one wins and the other is told it is taken.
  // Sent as built, so the user answered is the item written, timestamps included (no read back).
  const transaction = db()
    .transaction.write(({ user: users, userEmail }) => [
      userEmail.create({ email, user_id: user.user_id }).commit(),
      users.create(user).commit(),
    ])
    .params() as TransactionParams;
  if ((await sendTransaction(transaction)).canceled)
    throw new ConflictError("An account with that email already exists.", "email_taken");
  const written = putItem(transaction, 1);
  const created = written ? db().entities.user.parse({ Item: written }).data : null;
  if (!created) throw new Error("the new user's item was not built");
  return created;
}

/**
 * A new user as written (a fresh id, the address normalised, the password hashed), for createUser
 * or a caller's own transaction (register). Written with the address's claim (`userEmail`) in the
 * same transaction, so one address has one account.
 */
export async function newUser(input: {
  email: string;
  name: string;
  password?: string;
  email_verified?: boolean;
}) {
  return {
    user_id: newId(),
    email: normaliseEmail(input.email),
    name: input.name.trim(),
    password_hash: input.password ? await hashPassword(input.password) : undefined,
    email_verified_at: input.email_verified ? new Date().toISOString() : undefined,
  };
}

/** The first passed code proves the address (sign-in and registration alike). */
export async function markEmailVerified(userId: string) {
  await db()
    .entities.user.patch({ user_id: userId })
    .set({ email_verified_at: new Date().toISOString() })
    .where((attr, op) => op.notExists(attr.email_verified_at))
    .go()
    .catch(() => undefined);
}
