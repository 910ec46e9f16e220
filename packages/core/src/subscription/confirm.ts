/**
 * `POST /api/subscriptions` as the member confirms it: every field defaults to what registration
 * stored for them (price, gym, start date, billing date) and to their default payment type, then
 * the money engine's `subscribe` makes the subscription and its first payment.
 *
 * Registration keeps its own record; it tells this module how to read it through
 * `useRegistrationDefaults` (a hook, so subscriptions do not import registration).
 */
import type { Actor } from "../auth/actor";
import { subscribeBody } from "../contract/payment";
import { ValidationError } from "../errors";
import { findPrice } from "../price/store";
import { parse } from "../validation";
import { subscribe, subscriptionWithPayments } from "./service";
import { findSubscription } from "./store";

export interface RegistrationDefaults {
  price_id?: string | null;
  gym_id?: string | null;
  start_date?: string | null;
  billing_date?: string | null;
  /** The private price the member's link opened (the only private price they may choose). */
  linked_price_id?: string | null;
}

type DefaultsReader = (userId: string, organisationId: string | null) => Promise<RegistrationDefaults | null>;
let readDefaults: DefaultsReader = async () => null;
type AfterSubscribed = (userId: string) => Promise<void>;
const afterSubscribed: AfterSubscribed[] = [];

/** Registration registers how to read what the member chose (and what to do once subscribed). */
export function useRegistrationDefaults(reader: DefaultsReader, onSubscribed?: AfterSubscribed) {
  readDefaults = reader;
  if (onSubscribed) afterSubscribed.push(onSubscribed);
}

export async function confirmSubscription(actor: Actor, body: unknown) {
  const values = parse(subscribeBody, body ?? {});
  const stored = (await readDefaults(actor.userId, actor.organisationId)) ?? {};
  const pick = <K extends keyof RegistrationDefaults>(key: K) =>
    (values as RegistrationDefaults)[key] ?? stored[key] ?? undefined;
  const priceId = pick("price_id");
  // A private price is sold only through its link: a member cannot name one in the body.
  if (priceId && actor.organisationId) {
    const price = await findPrice(actor.organisationId, priceId);
    if (price?.private && price.price_id !== stored.linked_price_id)
      throw ValidationError.field("price_id", "This price is offered only through its private link.");
  }
  const answer = await subscribe(actor, {
    price_id: priceId,
    gym_id: pick("gym_id"),
    start_date: pick("start_date"),
    billing_date: pick("billing_date"),
    payment_type_id: values.payment_type_id ?? null,
    promo_code: values.promo_code,
  });
  for (const hook of afterSubscribed) await hook(actor.userId);
  // Answer it as stored (timestamps are set by the write), with its payments read back.
  const saved = actor.organisationId ? await findSubscription(actor.organisationId, answer.id) : null;
  return saved ? subscriptionWithPayments(saved) : answer;
}
