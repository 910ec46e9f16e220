/**
 * Door access and visits for the demo: every Harbour member's door access is synced from their
 * standing (the seed's back-dated memberships were written without the operations' hooks), and
 * the members who may open the doors get a few weeks of visits at Ponsonby's front door.
 */
import { syncDoorAccess } from "@gym/core/access/sync";
import { recordVisit } from "@gym/core/access/visits";
import { db } from "@gym/core/db/service";
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
  for (const [i, sub] of members.entries()) {
    const records = await syncDoorAccess(org, sub.user_id).catch(() => []);
    if (!records.some((r) => r.status === "granted" && r.gym_id === ponsonby.gym_id)) continue;
    // Between none and four visits a week for four weeks, at a member's usual hour.
    const perWeek = i % 5;
    for (let week = 0; week < 4; week++) {
      for (let v = 0; v < perWeek; v++) {
        const at = new Date(now - (week * 7 + v * 2 + 1) * 86_400_000 + ((i * 37) % 600) * 60_000);
        await recordVisit({
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
        });
      }
    }
  }
}
