/**
 * Door access after money changes, through the Kisi port. Door standing (billing rules): active,
 * or cancelled but inside the paid period, and not past grace and not paused. Grace expiry revokes;
 * a cleared debt restores. An organisation without Kisi connected, or a gym without a Kisi place,
 * has nothing to change.
 */
import { log } from "../log";
import { kisiKeyOf } from "../organisation/settings";
import { kisiProvider } from "../providers/kisi/index";
import { getUser } from "../user/service";
import { gymOf, organisationOf } from "./context";

async function target(organisationId: string, gymId: string, userId: string) {
  const [organisation, gym] = await Promise.all([
    organisationOf(organisationId),
    gymOf(organisationId, gymId),
  ]);
  if (!organisation.access_control || !gym.kisi_place) return null;
  const user = await getUser(userId);
  return {
    apiKey: await kisiKeyOf(organisationId),
    input: { place_id: gym.kisi_place.place_id, external_id: userId, email: user.email, name: user.name },
  };
}

export async function revokeAccess(organisationId: string, gymId: string, userId: string): Promise<boolean> {
  const t = await target(organisationId, gymId, userId);
  if (!t) return false;
  await kisiProvider().revokeMemberAccess(t.apiKey, t.input);
  return true;
}

export async function ensureAccess(organisationId: string, gymId: string, userId: string): Promise<boolean> {
  const t = await target(organisationId, gymId, userId);
  if (!t) return false;
  await kisiProvider().ensureMemberAccess(t.apiKey, t.input);
  return true;
}

/** After a debt is cleared: access again (errors are logged; the next change re-evaluates). */
export async function restoreAccessIfStanding(payment: {
  organisation_id: string;
  gym_id: string;
  user_id: string;
}) {
  try {
    await ensureAccess(payment.organisation_id, payment.gym_id, payment.user_id);
  } catch (error) {
    log.warn("door access not restored", { user_id: payment.user_id, error: (error as Error).message });
  }
}
