import { randomBytes } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import type { Actor } from "../auth/actor";
import { takeLimit } from "../auth/throttle";
import { config } from "../config";
import { ValidationError } from "../errors";

/**
 * The `state` of a provider connection (Stripe Connect, Akahu consent): an HS256 JWT signed with
 * the session secret naming the purpose, user, organisation and gym, valid for ten minutes. The
 * exchange accepts it only for the same signed-in user and organisation, so a code cannot be
 * replayed into someone else's gym. Each state is single-use: its id (`jti`) is claimed with the
 * atomic limit (one use in its ten minutes), so a second exchange with it fails.
 */
export type ConnectPurpose = "stripe_connect" | "akahu_consent";
const TTL_SECONDS = 10 * 60;
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
    .setJti(randomBytes(16).toString("base64url"))
    .setIssuedAt()
    .setExpirationTime(`${TTL_SECONDS}s`)
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
      typeof payload.gym !== "string" ||
      typeof payload.jti !== "string"
    ) {
      throw new Error("state mismatch");
    }
    const use = await takeLimit(`connect-state:${payload.jti}`, { limit: 1, windowSeconds: TTL_SECONDS });
    if (!use.ok) throw new Error("state already used");
    return payload as typeof payload & { gym: string; org: string };
  } catch {
    throw ValidationError.field("state", STATE_INVALID);
  }
}
