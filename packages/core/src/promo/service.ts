/**
 * Promo codes (docs/offers.md "Promo codes"): organisation admins make, change and archive them.
 * Using one (the join site's check, a join's writes): join.ts. Rules: rules.ts; the discount on each
 * charge: billing/discount.ts.
 */
import type { Actor } from "../auth/actor";
import { authorize, currentOrganisation, policy } from "../auth/policy";
import { aucklandDate } from "../billing/calendar";
import { formatBasisPoints, formatCents } from "../billing/money";
import { businessNow } from "../clock";
import { type PromoCode, type PromoCodeUpdate, promoCodeInput, promoCodeUpdate } from "../contract/promo";
import { db } from "../db/service";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { listGyms } from "../gym/service";
import { newId } from "../ids";
import { listOfferingRecords } from "../offering/store";
import { listPriceRecords } from "../price/store";
import { parse } from "../validation";
import { summaryOf } from "./rules";
import { findPromoCode, findPromoCodeByName, listPromoCodeRecords, type PromoCodeRecord } from "./store";

export type { PromoCodeRecord };

function statusOf(code: PromoCodeRecord, today: string): PromoCode["status"] {
  if (code.archived_at) return "archived";
  if (code.ends_on && today > code.ends_on) return "expired";
  if (code.use_limit != null && code.uses >= code.use_limit) return "used_up";
  if (code.starts_on && today < code.starts_on) return "scheduled";
  return "active";
}

export function presentPromoCode(
  code: PromoCodeRecord,
  gymNames: Map<string, string>,
  today: string,
): PromoCode {
  return {
    id: code.promo_code_id,
    code: code.code,
    gym: code.gym_id ? { id: code.gym_id, name: gymNames.get(code.gym_id) ?? "" } : null,
    kind: code.kind,
    percent_basis_points: code.kind === "percent" ? code.value : null,
    amount_off: code.kind === "fixed" ? code.value : null,
    formatted_off: code.kind === "percent" ? formatBasisPoints(code.value) : formatCents(code.value),
    periods: code.periods ?? null,
    offering_ids: code.offering_ids,
    price_ids: code.price_ids,
    starts_on: code.starts_on ?? null,
    ends_on: code.ends_on ?? null,
    use_limit: code.use_limit ?? null,
    uses: code.uses,
    uses_left: code.use_limit == null ? null : Math.max(0, code.use_limit - code.uses),
    status: statusOf(code, today),
    summary: summaryOf(code),
    archived_at: code.archived_at ?? null,
    created_at: code.created_at ?? null,
  };
}

async function today() {
  return aucklandDate(await businessNow());
}

/** Codes are the organisation's: its admins manage them (docs/access-control.md). */
function manager(actor: Actor): string {
  authorize(policy.manageOrganisation(actor), "Only organisation admins may do this.");
  return currentOrganisation(actor);
}

/** The gym, offerings and prices named must be this organisation's (404 otherwise). */
async function checkTargets(organisationId: string, terms: PromoCodeUpdate) {
  const [gyms, offerings, prices] = await Promise.all([
    listGyms(organisationId),
    terms.offering_ids.length ? listOfferingRecords(organisationId) : [],
    terms.price_ids.length ? listPriceRecords(organisationId) : [],
  ]);
  if (terms.gym_id && !gyms.some((g) => g.gym_id === terms.gym_id)) throw new NotFoundError("gym");
  const offeringIds = new Set(offerings.map((o) => o.offering_id));
  if (terms.offering_ids.some((id) => !offeringIds.has(id))) throw new NotFoundError("offering");
  const priceIds = new Set(prices.map((p) => p.price_id));
  if (terms.price_ids.some((id) => !priceIds.has(id))) throw new NotFoundError("price");
  return new Map(gyms.map((g) => [g.gym_id, g.name]));
}

function storedTerms(terms: PromoCodeUpdate) {
  return {
    gym_id: terms.gym_id ?? undefined,
    kind: terms.kind,
    value: (terms.kind === "percent" ? terms.percent_basis_points : terms.amount_off) as number,
    periods: terms.periods ?? undefined,
    offering_ids: [...new Set(terms.offering_ids)],
    price_ids: [...new Set(terms.price_ids)],
    starts_on: terms.starts_on ?? undefined,
    ends_on: terms.ends_on ?? undefined,
    use_limit: terms.use_limit ?? undefined,
  };
}

const takenMessage = "An organisation's codes each have their own name: this one is taken.";

/** POST /api/promo-codes. */
export async function createPromoCode(actor: Actor, body: unknown): Promise<PromoCode> {
  const organisationId = manager(actor);
  const input = parse(promoCodeInput, body);
  const gymNames = await checkTargets(organisationId, input);
  const createdAt = new Date().toISOString();
  const record = {
    organisation_id: organisationId,
    promo_code_id: newId(),
    code: input.code,
    ...storedTerms(input),
    uses: 0,
    created_by: actor.userId,
  };
  try {
    await db()
      .transaction.write(({ promoCode, promoCodeName }) => [
        promoCodeName
          .create({ organisation_id: organisationId, code: input.code, promo_code_id: record.promo_code_id })
          .commit(),
        promoCode.create(record).commit(),
      ])
      .go()
      .then((r) => {
        if (r.canceled) throw ValidationError.field("code", takenMessage);
      });
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    if (await findPromoCodeByName(organisationId, input.code))
      throw ValidationError.field("code", takenMessage);
    throw error;
  }
  // Answered as written (no read back); the stored timestamps may be a millisecond later.
  const written = { ...record, created_at: createdAt, updated_at: createdAt } as PromoCodeRecord;
  return presentPromoCode(written, gymNames, await today());
}

/** GET /api/promo-codes: every code of the organisation, newest first. */
export async function listPromoCodes(actor: Actor): Promise<PromoCode[]> {
  const organisationId = manager(actor);
  const [codes, gyms, day] = await Promise.all([
    listPromoCodeRecords(organisationId),
    listGyms(organisationId),
    today(),
  ]);
  const gymNames = new Map(gyms.map((g) => [g.gym_id, g.name]));
  return codes
    .sort((a, b) => (a.promo_code_id < b.promo_code_id ? 1 : -1))
    .map((c) => presentPromoCode(c, gymNames, day));
}

/**
 * PUT /api/promo-codes/{id}: new terms for joins from now on. Members who joined with the code keep
 * the terms they joined with (snapshotted on their subscription). Conditional on the uses read, so a
 * limit lowered below the uses already made is refused, never half-applied.
 */
export async function updatePromoCode(actor: Actor, id: string, body: unknown): Promise<PromoCode> {
  const organisationId = manager(actor);
  const current = await findPromoCode(organisationId, id);
  if (!current) throw new NotFoundError("promo code");
  const input = parse(promoCodeUpdate, body);
  if (current.archived_at) throw new ConflictError("This code is archived, so it cannot change.", "archived");
  if (input.use_limit != null && input.use_limit < current.uses)
    throw ValidationError.field(
      "use_limit",
      `This code has been used ${current.uses} times: the limit cannot be lower than that.`,
    );
  const gymNames = await checkTargets(organisationId, input);
  const terms = storedTerms(input);
  const absent = (["gym_id", "periods", "starts_on", "ends_on", "use_limit"] as const).filter(
    (name) => terms[name] === undefined,
  );
  const { data } = await db()
    .entities.promoCode.patch({ organisation_id: organisationId, promo_code_id: id })
    .set(Object.fromEntries(Object.entries(terms).filter(([, v]) => v !== undefined)))
    .remove(absent)
    .where((a, op) =>
      [op.notExists(a.archived_at), input.use_limit != null ? op.lte(a.uses, input.use_limit) : ""]
        .filter(Boolean)
        .join(" AND "),
    )
    .go({ response: "all_new" })
    .catch(async (error) => {
      const now = await findPromoCode(organisationId, id);
      if (now?.archived_at)
        throw new ConflictError("This code is archived, so it cannot change.", "archived");
      if (now && input.use_limit != null && now.uses > input.use_limit)
        throw ValidationError.field(
          "use_limit",
          `This code has been used ${now.uses} times: the limit cannot be lower than that.`,
        );
      throw error;
    });
  return presentPromoCode(data as PromoCodeRecord, gymNames, await today());
}

/** DELETE /api/promo-codes/{id}/archive: no more joins with it; members who joined keep their terms. */
export async function archivePromoCode(actor: Actor, id: string): Promise<PromoCode> {
  const organisationId = manager(actor);
  const [current, gyms] = await Promise.all([findPromoCode(organisationId, id), listGyms(organisationId)]);
  if (!current) throw new NotFoundError("promo code");
  const gymNames = new Map(gyms.map((g) => [g.gym_id, g.name]));
  if (current.archived_at) return presentPromoCode(current, gymNames, await today());
  const { data } = await db()
    .entities.promoCode.patch({ organisation_id: organisationId, promo_code_id: id })
    .set({ archived_at: new Date().toISOString() })
    .go({ response: "all_new" });
  return presentPromoCode(data as PromoCodeRecord, gymNames, await today());
}
