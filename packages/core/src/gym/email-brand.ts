/**
 * The gym's logo and reply-to for the email layout, looked up in the send path. Email (platform)
 * does not import gyms: core.ts `createCore` hands it `gymBrand` (`useEmailBrand`).
 */
import { config } from "../config";
import type { Brand } from "../email/message";
import { logoUrl } from "./present";
import { type GymRecord, getGym } from "./service";

export async function gymBrand(ref: { organisation_id: string; gym_id: string }): Promise<Partial<Brand>> {
  const gym = await getGym(ref.organisation_id, ref.gym_id).catch(() => null);
  return gym ? brandOfGym(gym) : {};
}

/** The brand of a gym record the caller already holds (no lookup in the send path). */
export function brandOfGym(gym: GymRecord): Brand {
  const logo = logoUrl(gym.logo);
  return {
    name: gym.name,
    logo_url: logo ? `${config.joinUrl}${logo}` : null,
    reply_to: gym.price_change_notification_reply_to ?? null,
  };
}
