import { db } from "@gym/core/db/service";
import { findGymByUuid } from "@gym/core/registration/join";

/**
 * The `npm start` banner's join links: every gym of the local database (a Scan, acceptable only
 * here, on a developer's small local table; no request or job reads this way), at most `limit`.
 * A gym stored before the uuid index existed is written again so the link finds it.
 */
export async function localJoinLinks(joinUrl: string, limit = 12) {
  const { data: gyms } = await db().entities.gym.scan.go({ pages: "all" });
  const shown = [...gyms].sort((a, b) => a.name.localeCompare(b.name)).slice(0, limit);
  for (const gym of shown) if (!(await findGymByUuid(gym.uuid))) await db().entities.gym.put(gym).go();
  return shown.map((gym) => ({ name: gym.name, url: `${joinUrl}/?gym=${gym.uuid}` }));
}
