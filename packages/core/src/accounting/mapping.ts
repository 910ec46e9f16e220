/**
 * The account mapping (docs/accounting.md "The accounts"): which account of the organisation's
 * Xero chart each kind of money goes to. Organisation admins read and change it; until they save
 * one, the defaults answer (Xero's standard New Zealand chart where it has the account, and
 * suggested codes for the clearing and credit accounts it lacks).
 */
import type { Actor } from "../auth/actor";
import { authorize, inOrganisation, policy } from "../auth/policy";
import {
  type AccountingMapping,
  type AccountingMappingView,
  accountingMappingInput,
  defaultAccountingMapping,
} from "../contract/accounting";
import { db } from "../db/service";
import { ValidationError } from "../errors";
import { listGyms } from "../gym/service";
import { getOrganisation } from "../organisation/service";
import { parse } from "../validation";

/** The mapping before an admin saves one (contract/accounting.ts). */
export const defaultMapping: AccountingMapping = defaultAccountingMapping;

/** The organisation's mapping as the journals use it (the defaults when none was saved). */
export async function mappingOf(organisationId: string): Promise<AccountingMappingView> {
  const { data } = await db().entities.accountingMapping.get({ organisation_id: organisationId }).go();
  if (!data) return { ...defaultMapping, is_default: true, updated_at: null };
  return {
    ...defaultMapping,
    ...(data.mapping as AccountingMapping),
    is_default: false,
    updated_at: data.updated_at,
  };
}

function onlyAdmins(actor: Actor, organisationId: string) {
  inOrganisation(actor, organisationId);
  authorize(policy.manageOrganisation(actor), "Only organisation admins may see or change the accounts.");
}

/** `GET /api/organisations/{id}/accounting`. */
export async function readMapping(actor: Actor, organisationId: string): Promise<AccountingMappingView> {
  onlyAdmins(actor, organisationId);
  // The organisation's read only answers 404 for one that is gone: side by side with the mapping.
  const [, mapping] = await Promise.all([getOrganisation(organisationId), mappingOf(organisationId)]);
  return mapping;
}

/**
 * `PUT /api/organisations/{id}/accounting`: the whole mapping, validated (422 with field messages);
 * an offering or gym of another organisation is a 422 on its row, as an unknown one is.
 */
export async function saveMapping(actor: Actor, organisationId: string, input: unknown) {
  onlyAdmins(actor, organisationId);
  const mapping = parse(accountingMappingInput, input);
  await getOrganisation(organisationId);
  const [gyms, offerings] = await Promise.all([
    mapping.gyms.length ? listGyms(organisationId) : [],
    mapping.offerings.length
      ? db().entities.offering.query.primary({ organisation_id: organisationId }).go({ pages: "all" })
      : { data: [] },
  ]);
  const errors: Record<string, string[]> = {};
  const gymIds = new Set(gyms.map((g) => g.gym_id));
  mapping.gyms.forEach((row, i) => {
    if (!gymIds.has(row.gym_id)) errors[`gyms.${i}.gym_id`] = ["Choose one of your gyms"];
  });
  const offeringIds = new Set((offerings.data as { offering_id: string }[]).map((o) => o.offering_id));
  mapping.offerings.forEach((row, i) => {
    if (!offeringIds.has(row.offering_id))
      errors[`offerings.${i}.offering_id`] = ["Choose one of your offerings"];
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const { data } = await db()
    .entities.accountingMapping.put({ organisation_id: organisationId, mapping })
    .go();
  return { ...mapping, is_default: false, updated_at: data.updated_at };
}
