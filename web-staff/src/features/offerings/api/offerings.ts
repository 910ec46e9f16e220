/**
 * The offerings and prices calls (spec 001 §7). Their shapes are the contract's
 * (`@gym/core/contract/offering`, `…/price`): a field renamed there fails this app's type check.
 * Money is integer cents; the server sends the formatted strings, so pages never format money.
 */
import type { Deleted } from "@gym/core/contract/http";
import type { Offering, OfferingBody, OfferingOptions } from "@gym/core/contract/offering";
import type { NewPrivateLink, Price, PriceBody } from "@gym/core/contract/price";
import { api, useApi } from "@gym/web/api";

export type { BillingFrequency, TermUnit } from "@gym/core/billing/index";
export type {
  Offering,
  OfferingBody,
  OfferingHours,
  OfferingOptions,
  OfferingType,
} from "@gym/core/contract/offering";
export type { Price, PriceBody, PrivateLink } from "@gym/core/contract/price";

/** Answered whole (no paging). */
export const useOfferings = () => useApi<Offering[]>("/api/offerings");
export const useOffering = (id: string | undefined) => useApi<Offering>(id ? `/api/offerings/${id}` : null);
export const useOfferingOptions = () => useApi<OfferingOptions>("/api/offering-options");

export const createOffering = (body: OfferingBody) => api.post<Offering>("/api/offerings", body);
export const updateOffering = (id: string, body: OfferingBody) =>
  api.put<Offering>(`/api/offerings/${id}`, body);
export const archiveOffering = (id: string) => api.delete<Offering>(`/api/offerings/${id}/archive`);
export const deleteOffering = (id: string) => api.delete<Deleted>(`/api/offerings/${id}`);

export const createPrice = (offeringId: string, body: PriceBody) =>
  api.post<Price>(`/api/offerings/${offeringId}/prices`, body);
export const updatePrice = (id: string, body: PriceBody) => api.put<Price>(`/api/prices/${id}`, body);
export const archivePrice = (id: string) => api.delete<Price>(`/api/prices/${id}/archive`);
export const restorePrice = (id: string) => api.post<Price>(`/api/prices/${id}/restore`, {});
export const deletePrice = (id: string) => api.delete<Deleted>(`/api/prices/${id}`);
export const createPrivateLink = (id: string, ageBypass: boolean) =>
  api.post<NewPrivateLink>(`/api/prices/${id}/private-links`, { age_bypass: ageBypass });
