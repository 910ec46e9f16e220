/** A gym's Branch app (deep links in the member app). */
import type { Actor } from "../auth/actor";
import { currentOrganisation } from "../auth/policy";
import { branchConfigInput, type Gym } from "../contract/gym";
import { decryptSecret, encryptSecret } from "../crypto/secrets";
import { ValidationError } from "../errors";
import { branchProvider } from "../providers/branch/index";
import { parse } from "../validation";
import { secretContext } from "./present";
import { getGym } from "./service";
import { mayManage, patchGym } from "./settings";

export async function setBranchConfig(actor: Actor, gymId: string, input: unknown): Promise<Gym> {
  mayManage(actor, gymId);
  const values = parse(branchConfigInput, input);
  const gym = await getGym(currentOrganisation(actor), gymId);
  const secret =
    values.branch_secret ??
    (gym.branch_secret_enc
      ? decryptSecret(gym.branch_secret_enc, secretContext(gym, "branch_secret"))
      : null);
  if (!secret) throw ValidationError.field("branch_secret", "Value is required");
  try {
    await branchProvider().checkApp({ branchKey: values.branch_key, branchSecret: secret });
  } catch (error) {
    if ((error as { kind?: string }).kind === "declined")
      throw ValidationError.field("branch_key", (error as Error).message);
    throw error;
  }
  return patchGym(actor, gymId, {
    branch_app_id: values.branch_app_id,
    branch_key: values.branch_key,
    branch_secret_enc: encryptSecret(secret, secretContext(gym, "branch_secret")),
  });
}
