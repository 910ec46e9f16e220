/**
 * What making a subscription read, in the same request, for the `subscribed` outbox event's handler
 * delivered inline (outbox/events.ts; member/hooks.ts): the organisation, the gym, the member and
 * their subscriptions (the new one first). Records of this request only, never kept: a redelivery
 * reads them again.
 */
import type { GymRecord } from "../gym/service";
import type { Organisation } from "../organisation/service";
import type { SubscriptionRecord } from "./store";

export interface SubscribedRead {
  organisation: Organisation;
  gym: GymRecord;
  user: { email: string; name: string };
  subscriptions: SubscriptionRecord[];
}
