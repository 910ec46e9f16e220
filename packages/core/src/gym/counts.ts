import { db } from "../db/service";

/** Staff and member counts of every gym of an organisation: one query on its people. */
export async function countsByGym(organisationId: string) {
  const { data } = await db()
    .entities.role.query.primary({ organisation_id: organisationId })
    .go({ pages: "all" });
  const counts = new Map<string, { staff: number; members: number }>();
  const bump = (gymId: string, key: "staff" | "members") => {
    const entry = counts.get(gymId) ?? { staff: 0, members: 0 };
    entry[key]++;
    counts.set(gymId, entry);
  };
  const admins = data.filter((role) => !role.deleted_at && role.org_role === "admin").length;
  for (const role of data) {
    if (role.deleted_at) continue;
    if (role.org_role !== "admin") for (const g of role.gym_roles) bump(g.gym_id, "staff");
    for (const gymId of role.member_gym_ids) bump(gymId, "members");
  }
  return (gymId: string) => ({
    staff_count: admins + (counts.get(gymId)?.staff ?? 0),
    members_count: counts.get(gymId)?.members ?? 0,
  });
}
