/**
 * The staff and member counters move in the same transaction as the role write (user/roles.ts),
 * so the gyms list never reads the organisation's people; recountPeople rebuilds the same figures
 * from the role records.
 */
import { describe, expect, it } from "vitest";
import { useSeededApi } from "../../../../tests/support/api";

const api = useSeededApi();

describe("staff and member counters", () => {
  it("follow every role write, and agree with a recount from the role records", async () => {
    const { countsByGym, recountPeople } = await import("./counts");
    const { putRole } = await import("../user/roles");
    const organisationId = api.seed.organisations.harbour.organisation_id;
    const ponsonby = api.seed.gyms.ponsonby.gym_id;
    const newmarket = api.seed.gyms.newmarket.gym_id;
    const at = async (gymId: string) => (await countsByGym(organisationId))(gymId);
    const start = { ponsonby: await at(ponsonby), newmarket: await at(newmarket) };

    // A new member of both gyms, then a trainer at Ponsonby, then an organisation admin.
    const user = { organisation_id: organisationId, user_id: "01JTESTUSER00000000000000A" };
    await putRole({ ...user, member_gym_ids: [ponsonby, newmarket] });
    expect(await at(ponsonby)).toEqual({
      ...start.ponsonby,
      members_count: start.ponsonby.members_count + 1,
    });
    await putRole({ ...user, gym_roles: [{ gym_id: ponsonby, role: "personal_trainer" }] });
    expect(await at(ponsonby)).toEqual({ ...start.ponsonby, staff_count: start.ponsonby.staff_count + 1 });
    expect(await at(newmarket)).toEqual(start.newmarket);
    await putRole({ ...user, org_role: "admin" });
    expect(await at(newmarket)).toEqual({ ...start.newmarket, staff_count: start.newmarket.staff_count + 1 });

    // Two writes at once both land: the loser of the condition retries from the new record.
    await Promise.all([
      putRole({ ...user, org_role: "admin", member_gym_ids: [ponsonby] }),
      putRole({ ...user, org_role: "admin", member_gym_ids: [newmarket] }),
    ]);
    const settled = { ponsonby: await at(ponsonby), newmarket: await at(newmarket) };
    expect(settled.ponsonby.members_count + settled.newmarket.members_count).toBe(
      start.ponsonby.members_count + start.newmarket.members_count + 1,
    );

    await recountPeople(organisationId);
    expect({ ponsonby: await at(ponsonby), newmarket: await at(newmarket) }).toEqual(settled);
  });
});
