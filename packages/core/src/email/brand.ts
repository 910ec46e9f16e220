/** The gym's logo and reply-to for the email layout, looked up in the send path. */
import { config } from "../config";
import { logoUrl } from "../gym/present";
import { getGym } from "../gym/service";
import type { Brand } from "./message";

export async function gymBrand(ref: { organisation_id: string; gym_id: string }): Promise<Partial<Brand>> {
  const gym = await getGym(ref.organisation_id, ref.gym_id).catch(() => null);
  if (!gym) return {};
  const logo = logoUrl(gym.logo);
  return {
    name: gym.name,
    logo_url: logo ? `${config.joinUrl}${logo}` : null,
    reply_to: gym.price_change_notification_reply_to ?? null,
  };
}
