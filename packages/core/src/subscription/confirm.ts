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
import { parse } from "../validation";
import { subscribe } from "./service";

export interface RegistrationDefaults {
  price_id?: string | null;
  gym_id?: string | null;
  start_date?: string | null;
  billing_date?: string | null;
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
  const answer = await subscribe(actor, {
    price_id: pick("price_id"),
    gym_id: pick("gym_id"),
    start_date: pick("start_date"),
    billing_date: pick("billing_date"),
    payment_type_id: values.payment_type_id ?? null,
  });
  for (const hook of afterSubscribed) await hook(actor.userId);
  return answer;
}
