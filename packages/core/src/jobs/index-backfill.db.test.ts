/**
 * The index backfill (docs/data-model.md "Indexes added for scale"): items written before an index
 * existed are found through it after one run, members stay out of the sparse staff index, and a
 * second run changes nothing.
 */
import { describe, expect, it } from "vitest";
import { useTestApi } from "../../../../tests/support/api";
import { db } from "../db/service";
import { newId } from "../ids";
import { staffRolesOf } from "../user/roles";
import { backfillIndexKeys } from "./index-backfill";

useTestApi();

describe("backfillIndexKeys", () => {
  it("gives roles written before the staff index their keys, staff only; idempotent", async () => {
    const organisationId = newId();
    const [admin, trainer, member, gone] = [newId(), newId(), newId(), newId()];
    // As written before the index: a plain Put without its keys.
    await db()
      .entities.role.put([
        { organisation_id: organisationId, user_id: admin, org_role: "admin" },
        {
          organisation_id: organisationId,
          user_id: trainer,
          gym_roles: [{ gym_id: "g1", role: "personal_trainer" }],
          member_gym_ids: ["g1"],
        },
        { organisation_id: organisationId, user_id: member, member_gym_ids: ["g1"] },
        {
          organisation_id: organisationId,
          user_id: gone,
          org_role: "admin",
          deleted_at: "2026-01-01T00:00:00Z",
        },
      ])
      .go();
    expect(await staffRolesOf(organisationId)).toEqual([]);

    const first = await backfillIndexKeys();
    expect(first.staff_keyed).toBe(2);
    expect((await staffRolesOf(organisationId)).map((r) => r.user_id).sort()).toEqual(
      [admin, trainer].sort(),
    );

    const second = await backfillIndexKeys();
    expect(second.staff_keyed).toBe(0);
  });
});
