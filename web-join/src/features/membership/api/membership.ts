import type { CancellationPreview, PauseInput } from "@gym/core/contract/lifecycle";
import type { Subscription } from "@gym/core/contract/payment";
import { api, useApi } from "@gym/web/api";

export type { CancellationPreview, Subscription };

/** The signed-in member's live membership with its payments (null when they have none). */
export const MY_MEMBERSHIP_KEY = "/api/me/active-subscription";

export function useMyMembership() {
  return useApi<Subscription | null>(MY_MEMBERSHIP_KEY, { revalidateOnMount: true });
}

const own = (id: string, action: string) => `/api/me/subscriptions/${encodeURIComponent(id)}/${action}`;

export const pauseMyMembership = (id: string, body: PauseInput) =>
  api.post<Subscription>(own(id, "pause"), body);

/** Removes the pause the member booked, before it starts; its days come back. */
export const removeMyPause = (id: string) => api.delete<Subscription>(own(id, "pause"));

export const previewMyCancellation = (id: string) =>
  api.get<CancellationPreview>(own(id, "cancellation-preview"));

export const cancelMyMembership = (id: string, reason: string | null) =>
  api.post<Subscription>(own(id, "cancel"), {
    cancellation_reasons: reason ? [reason] : [],
  });

/** Stops the member's trial (docs/offers.md "Stopping during the trial"): ends at the trial's end, nothing to pay. */
export const stopMyTrial = (id: string) => api.post<Subscription>(own(id, "stop-trial"), {});
