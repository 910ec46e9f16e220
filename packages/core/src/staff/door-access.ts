/**
 * A staff member's door access, given or removed by an organisation admin at a gym, independent of
 * standing (docs/access-control.md). In the staff folder, beside the staff member it acts on, so
 * door access (access/) needs nothing from staff/.
 */
import { gymNames, presentDoorAccess } from "../access/service";
import { setStaffDoorAccess } from "../access/sync";
import type { Actor } from "../auth/actor";
import { type DoorAccessEntry, staffKisiAccessInput } from "../contract/access";
import { ValidationError } from "../errors";
import { parse } from "../validation";
import { staffInReach } from "./service";

/** `POST /api/staff/{id}/kisi-access`: organisation admins give or remove a staff member's door access at a gym. */
export async function staffKisiAccess(
  actor: Actor,
  staffId: string,
  body: unknown,
): Promise<DoorAccessEntry> {
  const { organisationId } = await staffInReach(actor, staffId);
  const { gym_id, enabled } = parse(staffKisiAccessInput, body);
  const gyms = await gymNames(organisationId);
  const gym = gyms.get(gym_id);
  if (!gym) throw ValidationError.field("gym_id", "Choose one of the organisation's gyms");
  return presentDoorAccess(await setStaffDoorAccess(organisationId, staffId, gym_id, enabled), gym.name);
}
