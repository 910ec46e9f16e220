/**
 * The gyms calls (spec 000 §7 Gyms, access control, Stripe Connect) and their answers. Secrets
 * arrive masked (`{ set, masked }`); percentages travel as basis points, money as cents.
 */
import type {
  AccessPlace,
  DoorIntegration,
  Gym,
  GymListItem,
  GymRole,
  gymInput,
} from "@gym/core/contract/gym";
import type { Url } from "@gym/core/contract/http";
import type { AccessControlIntegration } from "@gym/core/contract/organisation";
import { api, useApi } from "@gym/web/api";
import type { z } from "zod";

export type { AccessPlace, DoorIntegration, Gym, GymListItem, GymRole } from "@gym/core/contract/gym";
export type { MaskedSecret } from "@gym/core/contract/http";
export type AccessIntegration = AccessControlIntegration;

/** Admin / Personal Trainer / -- (spec 000 §3). */
export function roleLabel(role: GymRole): string {
  if (role === "admin") return "Admin";
  if (role === "personal_trainer") return "Personal Trainer";
  return "--";
}

export const gymPath = (id: string) => `/api/gyms/${id}`;

export function useGyms() {
  return useApi<GymListItem[]>("/api/gyms");
}

export function useGym(id: string | undefined) {
  return useApi<Gym>(id ? gymPath(id) : null);
}

export function useAccessIntegration(organisationId: string | undefined) {
  return useApi<AccessIntegration | null>(
    organisationId ? `/api/organisations/${organisationId}/access-control/integration` : null,
  );
}

export function useAccessPlaces(organisationId: string | undefined, enabled: boolean) {
  return useApi<AccessPlace[]>(
    organisationId && enabled ? `/api/organisations/${organisationId}/access-control/places` : null,
  );
}

export function usePlaceDoors(organisationId: string | undefined, placeId: string | null) {
  return useApi<DoorIntegration[]>(
    organisationId && placeId
      ? `/api/organisations/${organisationId}/access-control/places/${placeId}/doors`
      : null,
  );
}

export type GymDetailsBody = z.input<typeof gymInput>;

export const updateGym = (id: string, body: GymDetailsBody) => api.put<Gym>(gymPath(id), body);

export const putDestinationAccount = (
  gymId: string,
  accountId: string,
  body: { name: string; bank_account_number: string; bank_account_number_confirmation: string },
) => api.put<Gym>(`${gymPath(gymId)}/destination-accounts/${accountId}`, body);

export const setTracksVisits = (id: string, tracks_visits: boolean) =>
  api.put<Gym>(`${gymPath(id)}/tracks-visits`, { tracks_visits });

export const uploadLogo = (id: string, file: File) =>
  api.upload<Gym>(`${gymPath(id)}/logo`, { collection: "logo", file });

export const setBranchConfig = (
  id: string,
  body: { branch_app_id: string; branch_key: string; branch_secret: string },
) => api.put<Gym>(`${gymPath(id)}/branch-config`, body);

export const setAkahuConfig = (id: string, body: { akahu_app_token: string; akahu_app_secret: string }) =>
  api.put<Gym>(`${gymPath(id)}/akahu-config`, body);

export const startStripeConnect = (id: string) => api.post<Url>(`${gymPath(id)}/stripe/redirect`);

export const exchangeStripeCode = (code: string, state: string) =>
  api.post<Gym>("/api/stripe/exchange", { code, state });

export const connectKisi = (organisationId: string, apiKey: string) =>
  api.post<AccessIntegration>(`/api/organisations/${organisationId}/access-control/integration`, {
    integration_type: "kisi",
    api_key: apiKey,
  });

export const linkPlace = (
  gymId: string,
  placeId: string | null,
  doors: { id: string; tracks_visits: boolean }[],
) => api.post<Gym>(`${gymPath(gymId)}/access-control/places`, { place_id: placeId, doors });

/** Where the browser leaves for the provider (a seam for tests). */
export const browserNavigation = {
  assign: (url: string) => window.location.assign(url),
};
