import { findUserByEmail } from "@gym/core/user/service";
import { seedGyms } from "./gyms";
import { seedIdentity } from "./identity";
import { seedMoney } from "./money";
import { seedOfferings } from "./offerings";
import { seedVisits } from "./visits";

/**
 * Demo data for local running, written only into an empty table. Each domain adds its own
 * seed step here, building on what the earlier steps made.
 */
export async function seedIfEmpty(): Promise<boolean> {
  if (await findUserByEmail("admin@example.com")) return false;
  const identity = await seedIdentity();
  const { prices } = await seedOfferings(identity);
  await seedGyms(identity);
  await seedMoney(identity, {
    weekly: prices.anytimeWeekly.price_id,
    term: prices.anytimeTerm.price_id,
    pif: prices.summerPif.price_id,
  });
  await seedVisits(identity);
  return true;
}
