/**
 * The offerings and prices calls (spec 001 §7) and their answers. Money is integer cents; the
 * server sends the formatted strings, so the pages never format money themselves.
 */
import { api, useApi, useApiList } from "@gym/web/api";

export type BillingFrequency =
  | "daily"
  | "weekly"
  | "fortnightly"
  | "monthly"
  | "bi_monthly"
  | "quarterly"
  | "twice_yearly"
  | "yearly"
  | "one_off";
export type OfferingType = "24_7" | "limited_access";
export type TermUnit = "weeks" | "months" | "years";

export interface PrivateLink {
  id: string;
  url: string;
  age_bypass: boolean;
  created_at: string;
}

export interface Price {
  id: string;
  offering_id: string;
  offering: { id: string; name: string };
  amount: number;
  formatted_amount: string;
  billing_frequency: BillingFrequency;
  frequency_label: string;
  label: string;
  joining_fee: number | null;
  formatted_joining_fee: string | null;
  private: boolean;
  private_links: PrivateLink[];
  term_amount: number | null;
  term_unit: TermUnit | null;
  is_term_membership: boolean;
  formatted_term: string | null;
  membership_type: string;
  total_value: number | null;
  formatted_total_value: string | null;
  total_value_quoted_from: string | null;
  surcharge: number;
  formatted_surcharge: string;
  formatted_amount_with_surcharge: string;
  subscriptions_count: number;
  can_delete: boolean;
  offered: boolean;
  archived_at: string | null;
  created_at: string;
}

export interface OfferingHours {
  id: string;
  day: number;
  day_name: string;
  open_at: string;
  close_at: string;
  open_at_formatted: string;
  close_at_formatted: string;
}

export interface Offering {
  id: string;
  name: string;
  description: string | null;
  type: OfferingType;
  type_label: string;
  all_gyms_access: boolean;
  gyms: { id: string; name: string }[];
  mandated: boolean;
  hours_mandated: boolean;
  prices_mandated: boolean;
  hours: OfferingHours[];
  hours_formatted: string;
  prices: Price[];
  prices_count: number;
  subscriptions_count: number;
  can_delete: boolean;
  title_formatted: string;
  subtitle_formatted: string;
  frequencies_formatted: string;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface Option<T extends string = string> {
  value: T;
  label: string;
}

/** What the forms may offer this organisation (GET /api/offering-options). */
export interface OfferingOptions {
  enable_offerings: boolean;
  /** The signed-in person may create and change offerings (an admin, with offerings on). */
  can_manage: boolean;
  types: Option<OfferingType>[];
  billing_frequencies: Option<BillingFrequency>[];
  term_units: Option<TermUnit>[];
  gyms: { id: string; name: string }[];
}

/** The body of POST /api/offerings and PUT /api/offerings/{id}. */
export interface OfferingBody {
  name: string;
  description: string | null;
  type: OfferingType;
  all_gyms_access: boolean;
  gyms: string[];
  mandated: boolean;
  hours_mandated: boolean;
  prices_mandated: boolean;
  hours: { id?: string | null; day: number; open_at: string; close_at: string }[];
}

/** The body of POST /api/offerings/{id}/prices and PUT /api/prices/{id}. */
export interface PriceBody {
  amount: number;
  billing_frequency: BillingFrequency;
  private: boolean;
  joining_fee: number | null;
  term_unit: TermUnit | null;
  term_amount: number | null;
}

export const useOfferings = () => useApiList<Offering>("/api/offerings");
export const useOffering = (id: string | undefined) => useApi<Offering>(id ? `/api/offerings/${id}` : null);
export const useOfferingOptions = () => useApi<OfferingOptions>("/api/offering-options");

export const createOffering = (body: OfferingBody) => api.post<Offering>("/api/offerings", body);
export const updateOffering = (id: string, body: OfferingBody) =>
  api.put<Offering>(`/api/offerings/${id}`, body);
export const archiveOffering = (id: string) => api.delete<Offering>(`/api/offerings/${id}/archive`);
export const deleteOffering = (id: string) => api.delete(`/api/offerings/${id}`);

export const createPrice = (offeringId: string, body: PriceBody) =>
  api.post<Price>(`/api/offerings/${offeringId}/prices`, body);
export const updatePrice = (id: string, body: PriceBody) => api.put<Price>(`/api/prices/${id}`, body);
export const archivePrice = (id: string) => api.delete<Price>(`/api/prices/${id}/archive`);
export const restorePrice = (id: string) => api.post<Price>(`/api/prices/${id}/restore`, {});
export const deletePrice = (id: string) => api.delete(`/api/prices/${id}`);
export const createPrivateLink = (id: string, ageBypass: boolean) =>
  api.post<PrivateLink>(`/api/prices/${id}/private-links`, { age_bypass: ageBypass });
