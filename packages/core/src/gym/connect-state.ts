import { jwtVerify, SignJWT } from "jose";
import type { Actor } from "../auth/actor";
import { config } from "../config";
import { ValidationError } from "../errors";

/**
 * The `state` of a provider connection (Stripe Connect, Akahu consent): an HS256 JWT signed with
 * the session secret naming the purpose, user, organisation and gym, valid for ten minutes. The
 * exchange accepts it only for the same signed-in user and organisation, so a code cannot be
 * replayed into someone else's gym.
 */
export type ConnectPurpose = "stripe_connect" | "akahu_consent";
const TTL = "10m";
const secret = () => new TextEncoder().encode(`connect-state:${config.secret("SESSION_SECRET")}`);

export async function signConnectState(
  purpose: ConnectPurpose,
  actor: Actor,
  gymId: string,
  extra: Record<string, string> = {},
) {
  return new SignJWT({ purpose, org: actor.organisationId, gym: gymId, ...extra })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(actor.userId)
    .setIssuedAt()
    .setExpirationTime(TTL)
    .sign(secret());
}

export const STATE_INVALID =
  "This connection link has expired or is not yours. Please start connecting again.";

/** The gym (and extras) the state was made for; 422 on `state` when it is not valid for this actor. */
export async function verifyConnectState(purpose: ConnectPurpose, actor: Actor, state: string) {
  try {
    const { payload } = await jwtVerify(state, secret(), { algorithms: ["HS256"] });
    if (
      payload.purpose !== purpose ||
      payload.sub !== actor.userId ||
      payload.org !== actor.organisationId ||
      typeof payload.gym !== "string"
    ) {
      throw new Error("state mismatch");
    }
    return payload as typeof payload & { gym: string; org: string };
  } catch {
    throw ValidationError.field("state", STATE_INVALID);
  }
}
