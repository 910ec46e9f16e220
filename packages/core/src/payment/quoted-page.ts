/**
 * A list page of payments as the quote of the next money event reads them (issue 34 tour: the staff
 * payments list read "$15.68 ($15.00 + $0.68 surcharge)" where the member's page, the staff card
 * and the emails said "$0.00 … paid from your credit"). Each upcoming row is presented by
 * `presentAsQuoted` with its subscription's quote (`quoteNextEvent`, the one rule), never by a copy.
 *
 * Two rounds, whatever the page holds: the page's subscriptions in one BatchGet, then in one more
 * the organisation (its surcharge rates), the subscriptions' gyms and their default payment types
 * (a BatchGet reads at most 100 keys: a page of more is read in a few at once).
 */
import { type GetRequest, getMany } from "../db/get-many";
import { db } from "../db/service";
import type { GymRecord } from "../gym/service";
import type { Organisation } from "../organisation/service";
import { organisationSettings } from "../organisation/settings";
import type { PaymentTypeRecord } from "../payment-type/service";
import { findSubscriptions } from "../subscription/store";
import type { BillingContext } from "./context";
import { type PaymentView, presentAsQuoted, presentPayment } from "./present";
import { methodOf, quoteNextEvent } from "./quote";
import type { PaymentRecord } from "./store";

export async function presentQuotedPage(
  organisationId: string,
  items: readonly PaymentRecord[],
): Promise<PaymentView[]> {
  const upcoming = items.filter((p) => p.status === "upcoming" && p.subscription_id);
  if (!upcoming.length) return items.map(presentPayment);
  const subs = await findSubscriptions(
    upcoming.map((p) => ({ organisation_id: organisationId, subscription_id: p.subscription_id as string })),
  );
  const list = [...subs.values()];
  if (!list.length) return items.map(presentPayment);
  const gymIds = [...new Set(list.map((s) => s.gym_id))];
  const typed = list.filter((s) => s.payment_type_id);
  const requests: GetRequest[] = [
    { entity: db().entities.organisation, key: { organisation_id: organisationId } },
    ...gymIds.map((gym_id) => ({
      entity: db().entities.gym,
      key: { organisation_id: organisationId, gym_id },
    })),
    ...typed.map((s) => ({
      entity: db().entities.paymentType,
      key: { organisation_id: organisationId, user_id: s.user_id, payment_type_id: s.payment_type_id },
    })),
  ];
  // A full page (100 rows) is more than one BatchGet: getMany reads the batches side by side (one round).
  const [organisation, ...rest] = await getMany(requests);
  if (!organisation) return items.map(presentPayment);
  const gyms = new Map(gymIds.map((id, i) => [id, rest[i] as GymRecord | null]));
  const types = new Map(
    typed.map((s, i) => [s.subscription_id, rest[gymIds.length + i] as PaymentTypeRecord | null]),
  );
  // The records just read, as the quote asks for them (nothing read again).
  const context: BillingContext = {
    organisationOf: async () => organisation as Organisation,
    settingsOf: async () => organisationSettings(organisation as Organisation),
    gymOf: async (_org, gymId) => {
      const gym = gyms.get(gymId);
      if (!gym) throw new Error(`gym ${gymId} not read`);
      return gym;
    },
  };
  const quotes = new Map(
    await Promise.all(
      list
        .filter((s) => gyms.get(s.gym_id))
        .map(
          async (s) =>
            [
              s.subscription_id,
              await quoteNextEvent(
                s,
                items.filter((p) => p.subscription_id === s.subscription_id),
                context,
                methodOf(s, types.get(s.subscription_id)),
              ),
            ] as const,
        ),
    ),
  );
  return items.map((p) => {
    const quote = p.subscription_id ? quotes.get(p.subscription_id) : null;
    return quote ? presentAsQuoted(quote)(p) : presentPayment(p);
  });
}
