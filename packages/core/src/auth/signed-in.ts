import { getMany } from "../db/get-many";
import { db } from "../db/service";
import { listGyms } from "../gym/service";
import type { RoleWritten } from "../user/roles";
import { type Actor, actorFor, actorWithRole } from "./actor";
import { liveSession, type Session, sessionForToken, sessionKey, tokenNames } from "./session";

export interface SignedIn {
  /** The live session of the cookie, or null. */
  session: Session | null;
  /** Who acts, for a session that has passed the emailed code; null otherwise. */
  actor: Actor | null;
}

/**
 * The session of a cookie token and, once it has passed the code, its actor, in one round when the
 * token names its user and organisation (session.ts `tokenNames`): the session and the user's role
 * in that organisation in one BatchGetItem, the organisation's gyms beside it. Every fact still comes
 * from the table at this call: the session as stored (revoked or expired: no one is signed in), the
 * role as it is now (removed: the actor is built as `actorFor` builds it). Only when the session is
 * no longer in the organisation its token names (switched since) or the role is gone does it read
 * again, as `actorFor` does. A token without names (older ones) is read the two-round way.
 * (A call that needs only the session reads it alone: `sessionForToken`.)
 */
export async function signedIn(token: string | undefined): Promise<SignedIn> {
  const key = sessionKey(token);
  const names = tokenNames(token);
  if (!key) return { session: null, actor: null };
  if (!names?.organisationId) {
    const session = await sessionForToken(token);
    return { session, actor: session?.two_factor_passed ? await actorFor(session) : null };
  }
  const organisationId = names.organisationId;
  const gyms = listGyms(organisationId);
  gyms.catch(() => undefined);
  const [stored, role] = (await getMany([
    { entity: db().entities.session, key },
    { entity: db().entities.role, key: { organisation_id: organisationId, user_id: names.userId } },
  ])) as [Session | null, (RoleWritten & { deleted_at?: string }) | null];
  const session = await liveSession(stored);
  if (!session?.two_factor_passed) return { session, actor: null };
  const asNamed =
    session.user_id === names.userId &&
    session.current_organisation_id === organisationId &&
    role &&
    !role.deleted_at;
  return { session, actor: asNamed ? actorWithRole(session, role, await gyms) : await actorFor(session) };
}
