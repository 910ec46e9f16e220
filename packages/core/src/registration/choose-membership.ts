/** Choosing a membership when already signed in (`PUT /api/me/registration`), with the checks registering uses (service.ts). */
import { type Actor, actorFor } from "../auth/actor";
import { setSessionContext } from "../auth/session";
import {
  membershipChoiceInput,
  type RegistrationState,
  registrationMessages,
} from "../contract/registration";
import { ConflictError, ForbiddenError, ValidationError } from "../errors";
import { activeSubscriptionOf } from "../subscription/service";
import { getProfile, saveProfile } from "../user/profile";
import { isStaffRole, putRole, roleIn } from "../user/roles";
import { parse } from "../validation";
import { findGymByUuid } from "./join";
import { checkChoice, putRegistration, wasMember } from "./service";
import { registrationState } from "./state";

/**
 * `PUT /api/me/registration`: a signed-in member chooses a membership at a gym (by its link):
 * a past member rejoining, someone with an account at another gym or organisation, or a member
 * changing their mind before confirming. Refused while they have a live membership in that
 * organisation (409) and for staff accounts (403). Their place at the gym is added, the
 * registration record starts afresh (not subscribed), and the session moves to that gym; the
 * answer is the new registration state (photo and payment methods they already have count).
 */
export async function chooseMembership(actor: Actor, body: unknown): Promise<RegistrationState> {
  const input = parse(membershipChoiceInput, body);
  if (actor.isStaff) throw new ForbiddenError(registrationMessages.staffAccount);
  // The date of birth this organisation was given, else the one typed now (checked first).
  const joining = await findGymByUuid(input.gym);
  const known = joining ? (await getProfile(joining.organisation_id, actor.userId))?.dob : undefined;
  const { gym, organisationId, price, links, errors } = await checkChoice(input, known ?? input.dob, joining);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  // Whether they were a member before needs only the role and their records: read beside the checks.
  const roleRead = roleIn(organisationId, actor.userId);
  const [active, role, returning] = await Promise.all([
    activeSubscriptionOf(organisationId, actor.userId),
    roleRead,
    wasMember(organisationId, actor.userId, roleRead),
  ]);
  if (active) throw new ConflictError(registrationMessages.alreadyMember, "already_member");
  if (role && isStaffRole(role)) throw new ForbiddenError(registrationMessages.staffAccount);
  if (!known && input.dob) await saveProfile(organisationId, actor.userId, { dob: input.dob });
  if (!role?.member_gym_ids.includes(gym.gym_id))
    await putRole({
      organisation_id: organisationId,
      user_id: actor.userId,
      member_gym_ids: [...(role?.member_gym_ids ?? []), gym.gym_id],
    });
  // The session moves to the gym beside the registration's write (the role there is written above).
  const context = { current_organisation_id: organisationId, current_gym_id: gym.gym_id };
  await Promise.all([
    putRegistration(actor.userId, { gym, price: price!, links, start_date: input.start_date }, returning),
    setSessionContext(actor.sessionId, context),
  ]);
  return registrationState(
    await actorFor({ session_id: actor.sessionId, user_id: actor.userId, ...context }),
  );
}
