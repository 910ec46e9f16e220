import {
  type GraceUnit,
  graceUnitOptions,
  type OrganisationSettings,
  organisationFrequencyOptions,
} from "@gym/core/contract/organisation";
import type { RegistrationSettings } from "@gym/core/contract/registration";
import { api, useApi } from "@gym/web/api";

export type { GraceUnit, OrganisationSettings, RegistrationSettings };

export const GRACE_UNITS = graceUnitOptions;
export const PRICE_FREQUENCIES = organisationFrequencyOptions;

const path = (id: string, suffix = "") => `/api/organisations/${id}${suffix}`;

export const useOrganisationSettings = (id: string | undefined) =>
  useApi<OrganisationSettings>(id ? path(id) : null);

export const saveSection = (id: string, suffix: string, body: unknown) =>
  api.put<OrganisationSettings>(path(id, suffix), body);

/** The minimum age to join online lives beside the registration calls (docs/registration.md). */
export const useRegistrationSettings = (id: string | undefined) =>
  useApi<RegistrationSettings>(id ? path(id, "/registration-settings") : null);

export const saveRegistrationSettings = (id: string, body: RegistrationSettings) =>
  api.put<RegistrationSettings>(path(id, "/registration-settings"), body);
