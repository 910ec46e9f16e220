import {
  type GraceUnit,
  graceUnitOptions,
  type OrganisationSettings,
  organisationFrequencyOptions,
} from "@gym/core/contract/organisation";
import { api, useApi } from "@gym/web/api";

export type { GraceUnit, OrganisationSettings };

export const GRACE_UNITS = graceUnitOptions;
export const PRICE_FREQUENCIES = organisationFrequencyOptions;

const path = (id: string, suffix = "") => `/api/organisations/${id}${suffix}`;

export const useOrganisationSettings = (id: string | undefined) =>
  useApi<OrganisationSettings>(id ? path(id) : null);

export const saveSection = (id: string, suffix: string, body: unknown) =>
  api.put<OrganisationSettings>(path(id, suffix), body);
