/** Keys and queries of dunning's sparse indexes (entity.ts `dunningEntity`). */
import type { EntityItem } from "electrodb";
import type { CivilDate } from "../../billing/calendar";
import { db } from "../../db/service";
import { shardPages } from "../../db/shard-pages";
import { shardOf } from "../../db/shards";
import type { dunningEntity } from "./entity";

export type DunningRecord = EntityItem<typeof dunningEntity>;

export const dunningKeys = {
  grace: (subscriptionId: string, graceEndsAt: string) => ({
    grace_key: `grace#${shardOf(subscriptionId)}`,
    grace_sort: `${graceEndsAt}#${subscriptionId}`,
  }),
  retry: (subscriptionId: string, on: CivilDate) => ({
    retry_key: `retry#${shardOf(subscriptionId)}`,
    retry_sort: `${on}#${subscriptionId}`,
  }),
};

/** Every dunning item whose grace end (ISO) or retry date (civil) is at or before `upTo`, a page at a time. */
export async function* dunningPages(kind: "grace" | "retry", upTo: string): AsyncGenerator<DunningRecord[]> {
  const index = kind === "grace" ? "gsi1" : "gsi2";
  for await (const items of shardPages({ index, family: kind, sortAtMost: `${upTo}~` }))
    yield db().entities.dunning.parse({ Items: items }).data as DunningRecord[];
}
