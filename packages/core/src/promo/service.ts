/**
 * Promo codes (docs/offers.md "Promo codes"): organisation admins make, change and archive them;
 * the join site checks one as it is typed; a join uses one (`promoForJoin`, then `promoJoinItems` in
 * the subscription's transaction). Rules: rules.ts; the discount on each charge: billing/discount.ts.
 */
import type { Actor } from "../auth/actor";
import { authorize, currentOrganisation, inGym, policy } from "../auth/policy";
import { aucklandDate, type CivilDate } from "../billing/calendar";
import { discountOf } from "../billing/discount";
import { formatBasisPoints, formatCents } from "../billing/money";
import { chargeAfter } from "../billing/schedule";
import { pifEnd } from "../billing/term";
import { businessNow } from "../clock";
import {
  type PromoCheck,
  type PromoCode,
  type PromoCodeUpdate,
  promoCheckQuery,
  promoCodeInput,
  promoCodeUpdate,
} from "../contract/promo";
import { db } from "../db/service";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { listGyms } from "../gym/service";
import { newId } from "../ids";
import { findOffering, listOfferingRecords } from "../offering/store";
import { chargeSurcharge } from "../payment/surcharge";
import { defaultPaymentTypeOf } from "../payment-type/service";
import type { PriceRecord } from "../price/present";
import { findPrice, listPriceRecords } from "../price/store";
import { parse } from "../validation";
import { promoRefusals, refusalOf, termsOf } from "./rules";
import {
  findPromoCode,
  findPromoCodeByName,
  hasUsedPromoCode,
  listPromoCodeRecords,
  type PromoCodeRecord,
} from "./store";

export type { PromoCodeRecord };

function summaryOf(code: Pick<PromoCodeRecord, "kind" | "value" | "periods">): string {
  const off = `${code.kind === "percent" ? formatBasisPoints(code.value) : formatCents(code.value)} off`;
  if (code.periods == null) return `${off} every period`;
  return code.periods === 1 ? `${off} the first period` : `${off} the first ${code.periods} periods`;
}

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

export interface PromoJoin {
  code: PromoCodeRecord;
  /** The terms to snapshot on the subscription. */
  snapshot: {
    promo_code_id: string;
    promo_code: string;
    promo_kind: PromoCodeRecord["kind"];
    promo_value: number;
    promo_periods?: number;
  };
}

/**
 * The code as a join may use it, or a 422 on `field` with the reason a person reads ("This code has
 * expired", "This code is for the Anytime membership"). Read again inside the join's retry.
 */
export async function promoForJoin(
  input: {
    organisation_id: string;
    user_id: string;
    gym_id: string;
    price: Pick<PriceRecord, "price_id" | "offering_id">;
    code: string;
    today: string;
  },
  field = "promo_code",
): Promise<PromoJoin> {
  const code = await findPromoCodeByName(input.organisation_id, input.code.trim().toUpperCase());
  if (!code) throw ValidationError.field(field, promoRefusals.unknown);
  const [used, names, gyms] = await Promise.all([
    hasUsedPromoCode(input.organisation_id, code.promo_code_id, input.user_id),
    offeringNamesOf(input.organisation_id, code),
    code.gym_id ? listGyms(input.organisation_id) : [],
  ]);
  const reason = refusalOf(code, {
    today: input.today,
    gym_id: input.gym_id,
    price_id: input.price.price_id,
    offering_id: input.price.offering_id,
    used_by_member: used,
    offering_names: names,
    gym_name: gyms.find((g) => g.gym_id === code.gym_id)?.name ?? "another gym",
  });
  if (reason) throw ValidationError.field(field, reason);
  return {
    code,
    snapshot: {
      promo_code_id: code.promo_code_id,
      promo_code: code.code,
      promo_kind: code.kind,
      promo_value: code.value,
      ...(code.periods != null ? { promo_periods: code.periods } : {}),
    },
  };
}

/** The names of the offerings a restricted code is for (its offerings, and its prices' offerings). */
async function offeringNamesOf(organisationId: string, code: PromoCodeRecord): Promise<string[]> {
  if (!code.offering_ids.length && !code.price_ids.length) return [];
  const prices = await Promise.all(code.price_ids.map((id) => findPrice(organisationId, id)));
  const offeringIds = [
    ...new Set([...code.offering_ids, ...prices.flatMap((p) => (p ? [p.offering_id] : []))]),
  ];
  const offerings = await Promise.all(offeringIds.map((id) => findOffering(organisationId, id)));
  return offerings.flatMap((o) => (o ? [o.name] : []));
}

/**
 * The writes a join with a code adds to the subscription's transaction: the code's `uses` counter
 * (conditional on a use being left and the code not archived: a limit holds under parallel joins)
 * and the member's one use of it (conditional on not existing).
 */
type Committable = { commit(): never };
type Where = (attrs: Record<string, unknown>, op: Record<string, (...a: unknown[]) => string>) => string;
type CodeTx = {
  patch(key: Record<string, string>): {
    add(values: Record<string, number>): { where(w: Where): Committable };
  };
};
type UseTx = { create(item: Record<string, unknown>): Committable };

export function promoJoinItems(
  tx: { promoCode: unknown; promoCodeUse: unknown },
  join: PromoJoin,
  subscription: { organisation_id: string; user_id: string; subscription_id: string },
): never[] {
  const { code } = join;
  return [
    (tx.promoCode as CodeTx)
      .patch({ organisation_id: code.organisation_id, promo_code_id: code.promo_code_id })
      .add({ uses: 1 })
      .where((a, op) =>
        [op.notExists(a.archived_at), code.use_limit != null ? op.lt(a.uses, code.use_limit) : ""]
          .filter(Boolean)
          .join(" AND "),
      )
      .commit(),
    (tx.promoCodeUse as UseTx)
      .create({
        organisation_id: code.organisation_id,
        promo_code_id: code.promo_code_id,
        user_id: subscription.user_id,
        subscription_id: subscription.subscription_id,
      })
      .commit(),
  ];
}

/** GET /api/promo-codes/check: the code's discount on one period of the price and the new all-in total. */
export async function checkPromoCode(actor: Actor, query: unknown): Promise<PromoCheck> {
  const values = parse(promoCheckQuery, query);
  if (!actor.organisationId) throw new ConflictError("Join a gym first.", "no_organisation");
  const organisationId = actor.organisationId;
  const gymId = values.gym_id ?? actor.gymId;
  if (!gymId) throw ValidationError.field("gym_id", "Value is required");
  inGym(actor, gymId);
  const price = await findPrice(organisationId, values.price_id);
  if (!price || price.archived_at) throw new NotFoundError("price");
  const day = await today();
  const [join, method] = await Promise.all([
    promoForJoin(
      {
        organisation_id: organisationId,
        user_id: actor.userId,
        gym_id: gymId,
        price,
        code: values.code,
        today: day,
      },
      "code",
    ),
    values.payment_type
      ? Promise.resolve(values.payment_type)
      : defaultPaymentTypeOf(organisationId, actor.userId).then((t) =>
          t?.type === "bank_account" ? "bank_account" : "stripe_card",
        ),
  ]);
  const terms = termsOf(join.code);
  const first = firstChargeOf(price, values.start_date ?? day, values.billing_date);
  const firstDiscount = first ? discountOf(terms, first, first.hasStub) : 0;
  const firstAmount = (first?.amount ?? 0) - firstDiscount;
  const discount = discountOf(
    terms,
    { index: 0, amount: price.amount, joining_fee: 0, is_pro_rata: false },
    false,
  );
  const left = price.amount - discount;
  const [surcharge, firstSurcharge] = await Promise.all([
    chargeSurcharge(organisationId, gymId, method, left),
    chargeSurcharge(organisationId, gymId, method, firstAmount),
  ]);
  return {
    code: join.code.code,
    summary: summaryOf(join.code),
    price_id: price.price_id,
    amount: price.amount,
    discount,
    surcharge,
    total: left + surcharge,
    formatted_amount: formatCents(price.amount),
    formatted_discount: formatCents(discount),
    formatted_surcharge: formatCents(surcharge),
    formatted_total: formatCents(left + surcharge),
    payment_type: method,
    periods: terms.periods,
    first_payment: {
      due_on: first?.due ?? day,
      amount: firstAmount,
      discount: firstDiscount,
      surcharge: firstSurcharge,
      total: firstAmount + firstSurcharge,
      formatted_discount: formatCents(firstDiscount),
      formatted_total: formatCents(firstAmount + firstSurcharge),
    },
  };
}

/** The first charge of a membership of the price starting on `start` (the schedule's own rule). */
function firstChargeOf(price: PriceRecord, start: CivilDate, billingDate?: CivilDate) {
  const isPif = price.billing_frequency === "one_off";
  const billing = isPif || !billingDate || billingDate < start ? start : billingDate;
  const charge = chargeAfter(
    {
      frequency: price.billing_frequency,
      amount: price.amount,
      joining_fee: price.joining_fee ?? null,
      start_date: start,
      billing_date: billing,
      pauses: [],
      price_change: null,
      cancellation_effective: null,
      term_ends_at: null,
      pif_ends_at: isPif ? pifEnd(start, price) : null,
    },
    null,
  );
  return charge ? { ...charge, hasStub: billing > start } : null;
}
