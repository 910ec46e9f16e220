import { findUserByEmail } from "@gym/core/user/service";
import { seedGyms } from "./gyms";
import { seedIdentity } from "./identity";
import { seedOfferings } from "./offerings";

/**
 * Demo data for local running, written only into an empty table. Each domain adds its own
 * seed step here, building on what the earlier steps made.
 */
export async function seedIfEmpty(): Promise<boolean> {
  if (await findUserByEmail("admin@example.com")) return false;
  const identity = await seedIdentity();
  await seedOfferings(identity);
  await seedGyms(identity);
  return true;
}
