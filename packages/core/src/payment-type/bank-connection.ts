import type { Actor } from "../auth/actor";
import { inGym } from "../auth/policy";
import { config } from "../config";
import { type AkahuAccount, akahuAuthUrlQuery, akahuExchangeInput } from "../contract/gym";
import { decryptSecret, encryptSecret } from "../crypto/secrets";
import { db } from "../db/service";
import { ConflictError, ValidationError } from "../errors";
import { appFor } from "../gym/akahu-app";
import { signConnectState, verifyConnectState } from "../gym/connect-state";
import { akahuProvider } from "../providers/akahu/index";
import { parse } from "../validation";

/**
 * The member's bank connection: a person connecting their bank through Akahu (enduring consent),
 * with the Akahu app of the gym they are joining: the authorisation URL (with a signed state), the
 * code exchange (the user token is stored encrypted) and syncing their accounts. Registration and
 * bank payments build on these; the gym's own Akahu app is gym/akahu-app.ts.
 */
const tokenContext = (organisationId: string, userId: string) =>
  `akahu_connection:${organisationId}:${userId}`;

const allowedRedirect = (uri: string) => {
  try {
    const url = new URL(uri);
    return [config.joinUrl, config.staffUrl].some((base) => new URL(base).origin === url.origin);
  } catch {
    return false;
  }
};

export async function akahuAuthUrl(actor: Actor, query: unknown) {
  const input = parse(akahuAuthUrlQuery, query);
  const gymId = input.gym_id || actor.gymId;
  if (!actor.organisationId || !gymId) throw ValidationError.field("gym_id", "Value is required");
  inGym(actor, gymId);
  const redirectUri = input.redirect_uri || `${config.joinUrl}/connect-akahu`;
  if (!allowedRedirect(redirectUri))
    throw ValidationError.field("redirect_uri", "The return address must be on this site");
  const app = await appFor(actor.organisationId, gymId);
  const state = await signConnectState("akahu_consent", actor, gymId, { redirect_uri: redirectUri });
  return { url: await akahuProvider().authorizationUrl(app, { redirectUri, state, email: input.email }) };
}

export async function akahuExchange(actor: Actor, input: unknown) {
  const { code, state } = parse(akahuExchangeInput, input);
  const claims = await verifyConnectState("akahu_consent", actor, state);
  inGym(actor, claims.gym);
  const organisationId = claims.org;
  const app = await appFor(organisationId, claims.gym);
  const { accessToken } = await akahuProvider().exchange(app, {
    code,
    redirectUri: String(claims.redirect_uri ?? ""),
  });
  await db()
    .entities.akahuConnection.put({
      organisation_id: organisationId,
      user_id: actor.userId,
      gym_id: claims.gym,
      token_enc: encryptSecret(accessToken, tokenContext(organisationId, actor.userId)),
      connected_at: new Date().toISOString(),
      accounts: [],
    })
    .go();
  return { connected: true, gym_id: claims.gym };
}

/** A member's Akahu user token and connection (billing charges their account with it), or null. */
export async function memberAkahuConnection(organisationId: string, userId: string) {
  const { data: connection } = await db()
    .entities.akahuConnection.get({ organisation_id: organisationId, user_id: userId })
    .go();
  return connection ? withToken(connection) : null;
}

/** A stored connection with its user token decrypted (throws when the token cannot be read). */
export function withToken<C extends { organisation_id: string; user_id: string; token_enc: string }>(
  connection: C,
) {
  const context = tokenContext(connection.organisation_id, connection.user_id);
  return { ...connection, token: decryptSecret(connection.token_enc, context) };
}

export async function akahuSyncAccounts(actor: Actor): Promise<AkahuAccount[]> {
  if (!actor.organisationId) throw new ConflictError("Connect your bank first.", "akahu_not_connected");
  const organisationId = actor.organisationId;
  const { data: connection } = await db()
    .entities.akahuConnection.get({ organisation_id: organisationId, user_id: actor.userId })
    .go();
  if (!connection) throw new ConflictError("Connect your bank first.", "akahu_not_connected");
  const app = await appFor(organisationId, connection.gym_id);
  const token = decryptSecret(connection.token_enc, tokenContext(organisationId, actor.userId));
  const accounts = await akahuProvider().listAccounts(app, token);
  await db()
    .entities.akahuConnection.patch({ organisation_id: organisationId, user_id: actor.userId })
    .set({
      synced_at: new Date().toISOString(),
      accounts: accounts.map((a) => ({
        ...a,
        formatted_account: a.formatted_account ?? undefined,
        connection: a.connection ?? undefined,
      })),
    })
    .go();
  return accounts;
}

/** Stores a person's Akahu connection (the code exchange does this; seeding and tests too). */
export async function storeAkahuConnection(input: {
  organisationId: string;
  userId: string;
  gymId: string;
  token: string;
  accounts: {
    id: string;
    name: string;
    formatted_account?: string | null;
    type: string;
    status: string;
    connection?: string | null;
  }[];
}) {
  await db()
    .entities.akahuConnection.put({
      organisation_id: input.organisationId,
      user_id: input.userId,
      gym_id: input.gymId,
      token_enc: encryptSecret(input.token, tokenContext(input.organisationId, input.userId)),
      connected_at: new Date().toISOString(),
      synced_at: new Date().toISOString(),
      accounts: input.accounts.map((a) => ({
        ...a,
        formatted_account: a.formatted_account ?? undefined,
        connection: a.connection ?? undefined,
      })),
    })
    .go();
}
