import { findUserByEmail } from "@gym/core/user/service";
import { seedIdentity } from "./identity";

/**
 * Demo data for local running, written only into an empty table. Each domain adds its own
 * seed step here, building on what the earlier steps made.
 */
export async function seedIfEmpty(): Promise<boolean> {
  if (await findUserByEmail("admin@example.com")) return false;
  await seedIdentity();
  return true;
}
