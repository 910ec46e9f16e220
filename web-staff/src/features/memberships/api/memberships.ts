/**
 * The membership lifecycle calls (spec 001 §7 Members; docs/billing.md) for the staff pages: a
 * subscription's actions (pause, cancel, undo, start now, manual payment), pay in full, and the
 * bulk price change. Shapes come from the contract (`@gym/core/contract/lifecycle`, `payment`).
 */
import type {
  CancelInput,
  CancellationPreview,
  ManualPaymentInput,
  OnboardedPif,
  OnboardPifInput,
  PassVisitsInput,
  PauseInput,
  PriceChangeCandidate,
  PriceChangeEmail,
  PriceChangeInput,
  StartEarlyData,
} from "@gym/core/contract/lifecycle";
import type { Subscription } from "@gym/core/contract/payment";
import type { Price } from "@gym/core/contract/price";
import { api, useApi } from "@gym/web/api";

export type {
  CancellationPreview,
  OnboardedPif,
  PriceChangeCandidate,
  PriceChangeEmail,
  StartEarlyData,
  Subscription,
};

const sub = (id: string) => `/api/subscriptions/${encodeURIComponent(id)}`;

export const subscriptionKey = sub;

export function useSubscription(id: string | null) {
  return useApi<Subscription>(id ? sub(id) : null);
}

export const pauseSubscription = (id: string, body: PauseInput) =>
  api.post<Subscription>(`${sub(id)}/pause`, body);
export const removePause = (id: string) => api.delete<Subscription>(`${sub(id)}/pause`);
export const cancelSubscription = (id: string, body: CancelInput) =>
  api.post<Subscription>(`${sub(id)}/cancel`, body);
export const undoCancellation = (id: string) => api.post<Subscription>(`${sub(id)}/undo-cancellation`);
export const startNow = (id: string) => api.post<Subscription>(`${sub(id)}/start-now`);
export const recordManualPayment = (id: string, body: ManualPaymentInput) =>
  api.post<Subscription>(`${sub(id)}/manual-payment`, body);

/**
 * docs/offers.md "Visit passes": an admin adds visits to a pass, with a reason, once per `key` (the
 * Idempotency-Key: a double-click or a retry with the same key adds once).
 */
export const addPassVisits = (id: string, body: PassVisitsInput, key: string) =>
  api.post<Subscription>(`${sub(id)}/pass-visits`, body, { headers: { "Idempotency-Key": key } });

export function useCancellationPreview(id: string | null, immediate: boolean) {
  return useApi<CancellationPreview>(id ? `${sub(id)}/cancellation-preview?immediate=${immediate}` : null);
}

export function useStartEarlyData(id: string | null) {
  return useApi<StartEarlyData>(id ? `${sub(id)}/start-early-data` : null);
}

// ---- Pay in full ----------------------------------------------------------------------------------

export const onboardPif = (organisationId: string, body: OnboardPifInput) =>
  api.post<OnboardedPif>(
    `/api/organisations/${encodeURIComponent(organisationId)}/members/onboard-pif`,
    body,
  );

export const resendPifInvite = (memberId: string) =>
  api.post<{ invite_sent: boolean }>(`/api/members/${encodeURIComponent(memberId)}/resend-pif-invite`);

/** The organisation's current prices (the pages filter them: PIF ones, or recurring ones). */
export function useOrganisationPrices(organisationId: string | null | undefined) {
  return useApi<Price[]>(
    organisationId ? `/api/organisations/${encodeURIComponent(organisationId)}/prices` : null,
  );
}

// ---- Bulk price change ----------------------------------------------------------------------------

export function usePriceChangeCandidates(priceId: string | null, gymId: string | null) {
  const query = gymId ? `?gym_id=${encodeURIComponent(gymId)}` : "";
  return useApi<PriceChangeCandidate[]>(
    priceId ? `/api/prices/${encodeURIComponent(priceId)}/subscriptions${query}` : null,
  );
}

export const previewPriceChange = (body: PriceChangeInput) =>
  api.post<PriceChangeEmail[]>("/api/subscriptions/change-price-email-preview", body);

export const schedulePriceChange = (body: PriceChangeInput) =>
  api.post<Subscription[]>("/api/subscriptions/schedule-price-change", body);
