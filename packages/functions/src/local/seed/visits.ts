/**
 * Door access and visits for the demo: every Harbour member's door access is synced from their
 * standing (the seed's back-dated memberships were written without the operations' hooks), and
 * the members who may open the doors get a few weeks of visits at Ponsonby's front door.
 *
 * The visits are history, written as `recordVisit` would have left them (one record per Kisi event,
 * with the offering it counts under) but in batches, and the dashboard's rollups are then recounted
 * from every payment, membership and visit (`backfillRollups`), as the seed does for its past
 * payments (docs/dashboard.md "Seed"): a visit at a time, each in its own counted transaction, was
 * most of a minute of seeding. Visits that happen while the product runs go through `recordVisit`.
 */
import { syncDoorAccess } from "@gym/core/access/sync";
import type { VisitRecord } from "@gym/core/access/visits";
import { aucklandDate } from "@gym/core/billing/calendar";
import { db } from "@gym/core/db/service";
import { findMember } from "@gym/core/member/service";
import { everyPayment } from "@gym/core/payment/every-payment";
import { backfillRollups } from "@gym/core/rollup/backfill";
import { subjectOf } from "@gym/core/rollup/writes";
import { SIMULATED_KISI_LOCKS } from "@gym/core/simulators/kisi";
import type { SeededIdentity } from "./identity";

export async function seedVisits(identity: SeededIdentity) {
  const org = identity.organisations.harbour.organisation_id;
  const { ponsonby } = identity.gyms;
  const { data: subs } = await db()
    .entities.subscription.query.primary({ organisation_id: org })
    .go({ pages: "all" });
  const members = [...new Map(subs.map((s) => [s.user_id, s])).values()];
  const door = SIMULATED_KISI_LOCKS[0];
  const now = Date.now();
  const visits: VisitRecord[] = [];
  for (const [i, sub] of members.entries()) {
    const records = await syncDoorAccess(org, sub.user_id).catch(() => []);
    if (!records.some((r) => r.status === "granted" && r.gym_id === ponsonby.gym_id)) continue;
    // Between none and four visits a week for four weeks, at a member's usual hour.
    const perWeek = i % 5;
    if (perWeek === 0) continue;
    // Counted under the offering of the member's latest membership on the day (as recordVisit does).
    const member = await findMember(org, sub.user_id);
    const latest = subs.find((s) => s.subscription_id === member?.latest_subscription_id);
    for (let week = 0; week < 4; week++) {
      for (let v = 0; v < perWeek; v++) {
        const at = new Date(now - (week * 7 + v * 2 + 1) * 86_400_000 + ((i * 37) % 600) * 60_000);
        const offeringId = latest ? subjectOf(latest, aucklandDate(at)).offering_id : undefined;
        visits.push({
          organisation_id: org,
          event_id: `seed-${sub.user_id}-${week}-${v}`,
          gym_id: ponsonby.gym_id,
          user_id: sub.user_id,
          visited_at: at.toISOString(),
          successful: true,
          member_name: sub.member_name,
          gym_name: ponsonby.name,
          door_id: door.id,
          door_name: door.name,
          ...(offeringId ? { offering_id: offeringId } : {}),
        } as VisitRecord);
      }
    }
  }
  for (let i = 0; i < visits.length; i += 25) {
    await db()
      .entities.visit.put(visits.slice(i, i + 25))
      .go();
  }
  await backfillRollups(org, aucklandDate(new Date()), await everyPayment(org));
}
