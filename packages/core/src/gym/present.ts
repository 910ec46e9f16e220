/** A gym as the staff site sees it (the contract's `Gym`): secrets masked, the account number masked. */
import type { Actor } from "../auth/actor";
import { formatBasisPoints } from "../billing/money";
import { maskNzBankAccount } from "../contract/bank-account";
import type { Gym } from "../contract/gym";
import { maskedSecret } from "../crypto/secrets";
import { breakFeeFor, cardSurchargeFor, type OrganisationSettings } from "../organisation/settings";
import type { GymRecord } from "./service";

export const roleLabel = (actor: Actor, gymId: string) =>
  actor.gymRoles.find((g) => g.gym_id === gymId)?.role ?? null;

export const secretContext = (gym: { gym_id: string }, field: "branch_secret" | "akahu_app_secret") =>
  `gym:${gym.gym_id}:${field}`;

export function logoUrl(key: string | null | undefined) {
  return key ? `/api/files/${key}` : null;
}

/** The gym as the staff site sees it: secrets masked, the account number masked. */
export function presentGym(
  gym: GymRecord,
  actor: Actor,
  settings: OrganisationSettings,
  organisation: { id: string; name: string },
  counts: { staff_count: number; members_count: number },
): Gym {
  const breakFee = breakFeeFor(settings, gym);
  return {
    id: gym.gym_id,
    uuid: gym.uuid,
    name: gym.name,
    selected: gym.gym_id === actor.gymId,
    role: roleLabel(actor, gym.gym_id),
    organisation,
    logo: logoUrl(gym.logo),
    created_at: gym.created_at,
    price_change_notification_reply_to: gym.price_change_notification_reply_to ?? null,
    destination_account: gym.destination_account
      ? {
          id: gym.destination_account.account_id,
          name: gym.destination_account.name,
          bank_account_number: maskNzBankAccount(gym.destination_account.bank_account_number),
        }
      : null,
    stripe_id: gym.stripe_id ?? null,
    has_payment_account: Boolean(gym.stripe_id),
    stripe_connected_at: gym.stripe_connected_at ?? null,
    tracks_visits: gym.tracks_visits,
    place: gym.kisi_place
      ? { id: gym.kisi_place.place_id, name: gym.kisi_place.name, place_id: gym.kisi_place.place_id }
      : null,
    doors: (gym.doors ?? []).map((door) => ({
      id: door.door_id,
      integration_type: "kisi" as const,
      integration: {
        id: door.door_id,
        name: door.name,
        door_id: door.door_id,
        tracks_visits: door.tracks_visits,
      },
    })),
    branch_app_id: gym.branch_app_id ?? null,
    branch_key: gym.branch_key ?? null,
    branch_secret: maskedSecret(gym.branch_secret_enc, secretContext(gym, "branch_secret")),
    akahu_app_token: gym.akahu_app_token ?? null,
    akahu_app_secret: maskedSecret(gym.akahu_app_secret_enc, secretContext(gym, "akahu_app_secret")),
    break_fee_basis_points: gym.break_fee_basis_points ?? null,
    card_surcharge_basis_points: gym.card_surcharge_basis_points ?? null,
    card_surcharge_fixed_cents: gym.card_surcharge_fixed_cents ?? null,
    break_fee_percentage: formatBasisPoints(breakFee),
    effective: { break_fee_basis_points: breakFee, card_surcharge: cardSurchargeFor(settings, gym) },
    organisation_defaults: {
      break_fee_basis_points: settings.break_fee_basis_points,
      card_surcharge_basis_points: settings.card_surcharge_basis_points,
      card_surcharge_fixed_cents: settings.card_surcharge_fixed_cents,
    },
    ...counts,
  };
}
