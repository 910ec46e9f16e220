import type { CurrentUser } from "@gym/web/auth";
import { staffUser } from "../../app/test-support";
import type { Gym } from "./api/gyms";

export const adminUser: CurrentUser = staffUser({
  id: "u1",
  organisations: [{ id: "org1", name: "Harbour Fitness" }],
  current_organisation: { id: "org1", name: "Harbour Fitness", multi_gym: true, role: "admin" },
  gyms: [{ id: "g1", name: "Harbour Fitness Ponsonby", role: null }],
  current_gym: { id: "g1", role: null },
});

export const trainerUser = {
  ...adminUser,
  current_organisation: { id: "org1", name: "Harbour Fitness", multi_gym: true, role: null },
  is_organisation_admin: false,
} as unknown as CurrentUser;

export const gym = (overrides: Partial<Gym> = {}): Gym => ({
  id: "g1",
  uuid: "uuid",
  name: "Harbour Fitness Ponsonby",
  selected: true,
  role: null,
  staff_count: 2,
  members_count: 1,
  organisation: { id: "org1", name: "Harbour Fitness" },
  logo: null,
  created_at: "2026-01-01T00:00:00Z",
  price_change_notification_reply_to: null,
  destination_account: null,
  stripe_id: null,
  has_payment_account: false,
  stripe_connected_at: null,
  tracks_visits: false,
  place: null,
  doors: [],
  branch_app_id: null,
  branch_key: null,
  branch_secret: { set: false, masked: null },
  akahu_app_token: null,
  akahu_app_secret: { set: false, masked: null },
  break_fee_basis_points: null,
  card_surcharge_basis_points: null,
  card_surcharge_fixed_cents: null,
  break_fee_percentage: "25%",
  effective: { break_fee_basis_points: 2500, card_surcharge: { percentBasisPoints: 250, fixedCents: 30 } },
  organisation_defaults: {
    break_fee_basis_points: 2500,
    card_surcharge_basis_points: 250,
    card_surcharge_fixed_cents: 30,
  },
  ...overrides,
});
