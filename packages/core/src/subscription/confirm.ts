/**
 * `POST /api/subscriptions` as the member confirms it: every field defaults to what registration
 * stored for them (price, gym, start date, billing date) and to their default payment type, then
 * the money engine's `subscribe` makes the subscription and its first payment.
 *
 * Registration keeps its own record; it tells this module how to read it through
 * `useRegistrationDefaults` (so subscriptions do not import registration). Once subscribed, the
 * registration is marked done and the welcome emailed by the `registration_confirmed` outbox
 * event, written with the subscription (outbox/events.ts; registration/service.ts handles it).
 */
import type { Actor } from "../auth/actor";
import { businessNow } from "../clock";
import { subscribeBody } from "../contract/payment";
import type { GymRecord } from "../gym/service";
import { knownContext } from "../payment/context";
import type { PaymentRecord } from "../payment/store";
import { parse } from "../validation";
import { memberReads, subscribeAsMember, subscriptionWithPayments } from "./service";
import type { SubscriptionRecord } from "./store";

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
/** What confirming just made and read, so the event's handler inline need not read it again. */
export interface Subscribed {
  organisation_id: string;
  subscription: SubscriptionRecord;
  first_payment: PaymentRecord;
  user: { email: string; name: string };
  gym: GymRecord;
}
/**
 * Registration registers how to read what the member chose. Answers the reader it replaces, so a
 * test that stands in for registration puts it back (the API test files share a process).
 */
export function useRegistrationDefaults(reader: DefaultsReader): DefaultsReader {
  const replaced = readDefaults;
  readDefaults = reader;
  return replaced;
}

export async function confirmSubscription(actor: Actor, body: unknown) {
  const values = parse(subscribeBody, body ?? {});
  // What making it reads of the member alone starts beside the registration's read (the price and
  // gym come from it): one round fewer.
  const early = actor.organisationId
    ? memberReads(actor.organisationId, actor.userId, await businessNow(), values.payment_type_id ?? null)
    : undefined;
  const stored = (await readDefaults(actor.userId, actor.organisationId)) ?? {};
  const pick = <K extends keyof RegistrationDefaults>(key: K) =>
    (values as RegistrationDefaults)[key] ?? stored[key] ?? undefined;
  // The answer runs beside the reactions delivered inline (door access, the member record, the
  // activity, the registration marked): none of them reads what another writes.
  let answer: ReturnType<typeof subscriptionWithPayments> | undefined;
  await subscribeAsMember(
    actor,
    {
      price_id: pick("price_id"),
      gym_id: pick("gym_id"),
      start_date: pick("start_date"),
      billing_date: pick("billing_date"),
      payment_type_id: values.payment_type_id ?? null,
      promo_code: values.promo_code,
    },
    {
      // A private price is sold only through its link: a member cannot name one in the body.
      linked_price_id: stored.linked_price_id ?? null,
      member_reads: early,
      confirms_registration: true,
      // The answer (the subscription as written, its payments read back, the quote from the records
      // read to make it) beside the reactions delivered inline.
      beside_subscribers: ({ subscription, read }) => {
        answer = subscriptionWithPayments(subscription, {
          context: knownContext({ organisation: read.organisation, gyms: [read.gym] }),
          paymentTypes: read.paymentType ? [read.paymentType] : [],
        });
        return answer;
      },
    },
  );
  if (!answer) throw new Error("the subscription's answer was not made");
  return await answer;
}
