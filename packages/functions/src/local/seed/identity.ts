import { db } from "@gym/core/db/service";
import { createGym } from "@gym/core/gym/service";
import { createOrganisation } from "@gym/core/organisation/service";
import { saveProfile } from "@gym/core/user/profile";
import { putRole } from "@gym/core/user/roles";
import { createUser } from "@gym/core/user/service";

export const DEMO_PASSWORD = "demo-password";

/** The demo people, printed at start. */
export const demoSignIns = [
  {
    email: "admin@example.com",
    who: "organisation admin of Harbour Fitness (two gyms) and of Kiwi CrossFit",
  },
  { email: "manager@example.com", who: "gym admin of Harbour Fitness Ponsonby" },
  { email: "trainer@example.com", who: "personal trainer at Harbour Fitness Ponsonby" },
  { email: "owner@example.org", who: "organisation admin of Southern Strength (another organisation)" },
  { email: "member@example.com", who: "a member of Harbour Fitness Ponsonby" },
] as const;

/**
 * Organisations, gyms and people. A multi-gym organisation with two gyms, a second
 * organisation with its own admin (to make isolation visible), a third organisation the demo
 * admin also runs (to make organisation switching visible), a trainer and a member.
 */
export async function seedIdentity() {
  const harbour = await createOrganisation({ name: "Harbour Fitness", multi_gym: true });
  // Receipts show a legal name and GST number (IRD's published test number; docs/communications.md).
  await db()
    .entities.organisation.patch({ organisation_id: harbour.organisation_id })
    .set({ legal_name: "Harbour Fitness Limited", gst_number: "49-091-850" })
    .go();
  const ponsonby = await createGym({
    organisation_id: harbour.organisation_id,
    name: "Harbour Fitness Ponsonby",
  });
  const newmarket = await createGym({
    organisation_id: harbour.organisation_id,
    name: "Harbour Fitness Newmarket",
  });

  const southern = await createOrganisation({ name: "Southern Strength" });
  const dunedin = await createGym({
    organisation_id: southern.organisation_id,
    name: "Southern Strength Dunedin",
  });

  const kiwi = await createOrganisation({ name: "Kiwi CrossFit" });
  const kiwiGym = await createGym({
    organisation_id: kiwi.organisation_id,
    name: "Kiwi CrossFit Wellington",
  });

  const people = {
    admin: await createUser({
      email: "admin@example.com",
      name: "avery admin",
      password: DEMO_PASSWORD,
      email_verified: true,
    }),
    manager: await createUser({
      email: "manager@example.com",
      name: "mika manager",
      password: DEMO_PASSWORD,
      email_verified: true,
    }),
    trainer: await createUser({
      email: "trainer@example.com",
      name: "taylor trainer",
      password: DEMO_PASSWORD,
      email_verified: true,
    }),
    owner: await createUser({
      email: "owner@example.org",
      name: "olive owner",
      password: DEMO_PASSWORD,
      email_verified: true,
    }),
    member: await createUser({
      email: "member@example.com",
      name: "morgan member",
      password: DEMO_PASSWORD,
      email_verified: true,
    }),
  };

  await putRole({
    organisation_id: harbour.organisation_id,
    user_id: people.admin.user_id,
    org_role: "admin",
  });
  await putRole({ organisation_id: kiwi.organisation_id, user_id: people.admin.user_id, org_role: "admin" });
  await putRole({
    organisation_id: harbour.organisation_id,
    user_id: people.manager.user_id,
    gym_roles: [{ gym_id: ponsonby.gym_id, role: "admin" }],
  });
  await putRole({
    organisation_id: harbour.organisation_id,
    user_id: people.trainer.user_id,
    gym_roles: [{ gym_id: ponsonby.gym_id, role: "personal_trainer" }],
  });
  await putRole({
    organisation_id: southern.organisation_id,
    user_id: people.owner.user_id,
    org_role: "admin",
  });
  await putRole({
    organisation_id: harbour.organisation_id,
    user_id: people.member.user_id,
    member_gym_ids: [ponsonby.gym_id],
  });
  // What the member told Harbour Fitness (docs/data-model.md "Personal details").
  await saveProfile(harbour.organisation_id, people.member.user_id, { mobile_number: "021 555 0101" });

  return {
    organisations: { harbour, southern, kiwi },
    gyms: { ponsonby, newmarket, dunedin, kiwi: kiwiGym },
    people,
  };
}

export type SeededIdentity = Awaited<ReturnType<typeof seedIdentity>>;
