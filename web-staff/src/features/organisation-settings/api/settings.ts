import { api, useApi } from "@gym/web/api";

export type GraceUnit = "days" | "weeks" | "months";
export const GRACE_UNITS: { value: GraceUnit; label: string }[] = [
  { value: "days", label: "Days" },
  { value: "weeks", label: "Weeks" },
  { value: "months", label: "Months" },
];
export const PRICE_FREQUENCIES = [
  { value: "weekly", label: "Weekly" },
  { value: "fortnightly", label: "Fortnightly" },
  { value: "monthly", label: "Monthly" },
  { value: "quarterly", label: "Quarterly" },
  { value: "six_monthly", label: "Six-monthly" },
  { value: "yearly", label: "Yearly" },
] as const;

export interface OrganisationSettings {
  id: string;
  name: string;
  multi_gym: boolean;
  offering_permissions: { enable_offerings: boolean; non_stop: boolean; limited_access: boolean };
  price_frequencies: string[];
  failed_payment_grace_period: number;
  failed_payment_grace_period_unit: GraceUnit;
  term_membership_grace_period: number;
  term_membership_grace_period_unit: GraceUnit;
  payment_retry_days: number[];
  cooling_off_days: number;
  pause_day_credit_days: number;
  card_surcharge_basis_points: number;
  card_surcharge_fixed_cents: number;
  break_fee_basis_points: number;
  access_control_integration: { id: string; integration_type: "kisi" } | null;
}

const path = (id: string, suffix = "") => `/api/organisations/${id}${suffix}`;

export const useOrganisationSettings = (id: string | undefined) =>
  useApi<OrganisationSettings>(id ? path(id) : null);

export const saveSection = (id: string, suffix: string, body: unknown) =>
  api.put<OrganisationSettings>(path(id, suffix), body);
