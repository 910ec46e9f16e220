import type { Actor } from "../auth/actor";
import { currentOrganisation } from "../auth/policy";
import { akahuConfigInput, type Gym } from "../contract/gym";
import { decryptSecret, encryptSecret } from "../crypto/secrets";
import { ConflictError, ValidationError } from "../errors";
import { type AkahuApp, akahuProvider, platformAkahuApp } from "../providers/akahu/index";
import { parse } from "../validation";
import { secretContext } from "./present";
import { getGym } from "./service";
import { mayManage, patchGym } from "./settings";

/** The gym's Akahu app: its own (set by its admins) or the platform's. Members' connections: payment-type/bank-connection.ts. */

/** The gym's own Akahu app, else the platform's; locally the simulated provider needs neither. */
export async function appFor(
  organisationId: string,
  gymId: string,
  /** Gyms this request read already (the session's, `Actor.gymRecords`): the gym is not read again. */
  known?: readonly Awaited<ReturnType<typeof getGym>>[],
): Promise<AkahuApp> {
  const gym =
    known?.find((g) => g.organisation_id === organisationId && g.gym_id === gymId) ??
    (await getGym(organisationId, gymId));
  if (gym.akahu_app_token && gym.akahu_app_secret_enc) {
    return {
      appToken: gym.akahu_app_token,
      appSecret: decryptSecret(gym.akahu_app_secret_enc, secretContext(gym, "akahu_app_secret")),
    };
  }
  const platform = platformAkahuApp();
  if (platform) return platform;
  if (akahuProvider().mode === "simulated")
    return { appToken: "app_token_simulated", appSecret: "app_secret_simulated" };
  throw new ConflictError("This gym's bank-feed connection is not set up yet.", "akahu_not_configured");
}

/** The gym's own Akahu app (token, secret; a blank secret keeps the stored one). */
export async function setAkahuConfig(actor: Actor, gymId: string, input: unknown): Promise<Gym> {
  mayManage(actor, gymId);
  const values = parse(akahuConfigInput, input);
  const gym = await getGym(currentOrganisation(actor), gymId);
  if (!values.akahu_app_secret && !gym.akahu_app_secret_enc)
    throw ValidationError.field("akahu_app_secret", "Value is required");
  return patchGym(actor, gymId, {
    akahu_app_token: values.akahu_app_token,
    ...(values.akahu_app_secret
      ? {
          akahu_app_secret_enc: encryptSecret(
            values.akahu_app_secret,
            secretContext(gym, "akahu_app_secret"),
          ),
        }
      : {}),
  });
}
