/**
 * Using a promo code (docs/offers.md "When a code may be used"): the join site's check as the code
 * is typed, and a join's use of it (`promoForJoin`, then `promoJoinItems` in the subscription's
 * transaction, so a use limit holds under parallel joins).
 */
import type { Actor } from "../auth/actor";
import { inGym } from "../auth/policy";
import { aucklandDate, type CivilDate } from "../billing/calendar";
import { discountOf } from "../billing/discount";
import { formatCents } from "../billing/money";
import { chargeAfter } from "../billing/schedule";
import { pifEnd } from "../billing/term";
import { billingDateAfterTrial } from "../billing/trial";
import { businessNow } from "../clock";
import { type PromoCheck, promoCheckQuery } from "../contract/promo";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { listGyms } from "../gym/service";
import { findOffering } from "../offering/store";
import { batchContext } from "../payment/context";
import { chargeSurcharge } from "../payment/surcharge";
import { defaultPaymentTypeOf } from "../payment-type/service";
import type { PriceRecord } from "../price/present";
import { findPrice } from "../price/store";
import { trialForJoin } from "../trial/join";
import { parse } from "../validation";
import { promoRefusals, refusalOf, summaryOf, termsOf } from "./rules";
import { findPromoCodeByName, hasUsedPromoCode, type PromoCodeRecord } from "./store";

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
    /** The price, or its read in flight (the code's reads need not wait for it). */
    price:
      | Pick<PriceRecord, "price_id" | "offering_id">
      | Promise<Pick<PriceRecord, "price_id" | "offering_id">>;
    code: string;
    today: string;
  },
  field = "promo_code",
): Promise<PromoJoin> {
  const code = await findPromoCodeByName(input.organisation_id, input.code.trim().toUpperCase());
  if (!code) {
    await input.price; // a price that is not there answers first (its 404), as when read before
    throw ValidationError.field(field, promoRefusals.unknown);
  }
  const [used, codeOfferings, gyms, price] = await Promise.all([
    hasUsedPromoCode(input.organisation_id, code.promo_code_id, input.user_id),
    codeOfferingsOf(input.organisation_id, code),
    code.gym_id ? listGyms(input.organisation_id) : [],
    input.price,
  ]);
  const reason = refusalOf(code, {
    today: input.today,
    gym_id: input.gym_id,
    price_id: price.price_id,
    offering_id: price.offering_id,
    used_by_member: used,
    code_offerings: codeOfferings,
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

/** The offerings a restricted code is for: its offerings, and its prices' offerings (`by_price`). */
async function codeOfferingsOf(organisationId: string, code: PromoCodeRecord) {
  if (!code.offering_ids.length && !code.price_ids.length) return [];
  const prices = await Promise.all(code.price_ids.map((id) => findPrice(organisationId, id)));
  const byPrice = new Set(prices.flatMap((p) => (p ? [p.offering_id] : [])));
  const offeringIds = [...new Set([...code.offering_ids, ...byPrice])];
  const offerings = await Promise.all(offeringIds.map((id) => findOffering(organisationId, id)));
  return offerings.flatMap((o) =>
    o
      ? [
          {
            id: o.offering_id,
            name: o.name,
            by_price: byPrice.has(o.offering_id) && !code.offering_ids.includes(o.offering_id),
          },
        ]
      : [],
  );
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
  // Side by side: the price, the code (its name, then its record, then the member's use of it),
  // the member's payment type and the organisation (the surcharge's settings); the gym is the
  // session's. Then the trial use, which needs the price.
  const context = batchContext({ gyms: actor.gymRecords });
  const priceRead = findPrice(organisationId, values.price_id).then((price) => {
    if (!price || price.archived_at) throw new NotFoundError("price");
    return price;
  });
  priceRead.catch(() => undefined);
  const settings = context.settingsOf(organisationId);
  settings.catch(() => undefined);
  const day = aucklandDate(await businessNow());
  const start = values.start_date ?? day;
  const [join, method, trial] = await Promise.all([
    promoForJoin(
      {
        organisation_id: organisationId,
        user_id: actor.userId,
        gym_id: gymId,
        price: priceRead,
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
    priceRead.then((price) => trialForJoin(organisationId, actor.userId, price, start)),
  ]);
  const price = await priceRead;
  const terms = termsOf(join.code);
  // After a trial (docs/offers.md "Trials"), the first payment a code discounts is the first paid one.
  const first = trial
    ? firstChargeOf(price, trial.trial_ends_on, billingDateAfterTrial(trial, values.billing_date))
    : firstChargeOf(price, start, values.billing_date);
  const firstDiscount = first ? discountOf(terms, first, first.hasStub) : 0;
  const firstAmount = (first?.amount ?? 0) - firstDiscount;
  const discount = discountOf(
    terms,
    { index: 0, amount: price.amount, joining_fee: 0, is_pro_rata: false },
    false,
  );
  const left = price.amount - discount;
  const [surcharge, firstSurcharge] = await Promise.all([
    chargeSurcharge(organisationId, gymId, method, left, context),
    chargeSurcharge(organisationId, gymId, method, firstAmount, context),
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
