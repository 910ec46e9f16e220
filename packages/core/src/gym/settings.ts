import { createHash } from "node:crypto";
import type { Actor } from "../auth/actor";
import { authorize, currentOrganisation, inGym, policy } from "../auth/policy";
import { formatBasisPoints } from "../billing/money";
import { config } from "../config";
import { decryptSecret, encryptSecret, maskedSecret } from "../crypto/secrets";
import { db } from "../db/service";
import { NotFoundError, ValidationError } from "../errors";
import { newId } from "../ids";
import { getOrganisation } from "../organisation/service";
import {
  breakFeeFor,
  cardSurchargeFor,
  kisiKeyOf,
  type OrganisationSettings,
  organisationSettings,
} from "../organisation/settings";
import { branchProvider } from "../providers/branch/index";
import { fileStore } from "../providers/files/index";
import { kisiProvider } from "../providers/kisi/index";
import { linkProviderId, unlinkProviderId } from "../providers/links";
import { stripeProvider } from "../providers/stripe/index";
import { parse } from "../validation";
import { maskNzBankAccount } from "./bank-account";
import { signConnectState, verifyConnectState } from "./connect-state";
import {
  akahuConfigInput,
  branchConfigInput,
  destinationAccountInput,
  gymInput,
  LOGO_MAX_BYTES,
  LOGO_TYPES,
  linkPlaceInput,
  stripeExchangeInput,
  tracksVisitsInput,
} from "./schemas";
import { getGym, listGyms } from "./service";

type Gym = Awaited<ReturnType<typeof getGym>>;

const roleLabel = (actor: Actor, gymId: string) =>
  actor.gymRoles.find((g) => g.gym_id === gymId)?.role ?? null;
export const secretContext = (gym: { gym_id: string }, field: "branch_secret" | "akahu_app_secret") =>
  `gym:${gym.gym_id}:${field}`;

/** A gym's settings may be changed by organisation admins, and by gym admins for their own gyms. */
function mayManage(actor: Actor, gymId: string) {
  inGym(actor, gymId);
  authorize(
    policy.useStaffArea(actor) && policy.manageGym(actor, gymId),
    "Only organisation admins and this gym's admins may change its settings.",
  );
}

/** Staff and member counts of every gym of an organisation: one query on its people. */
async function countsByGym(organisationId: string) {
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

/** GET /api/gyms: the gyms the user can reach, with their role and the counts. */
export async function listMyGyms(actor: Actor) {
  if (!actor.organisationId) return [];
  const counts = await countsByGym(actor.organisationId);
  return actor.gyms.map((gym) => ({
    id: gym.gym_id,
    name: gym.name,
    selected: gym.gym_id === actor.gymId,
    role: roleLabel(actor, gym.gym_id),
    ...counts(gym.gym_id),
  }));
}

export function logoUrl(key: string | null | undefined) {
  return key ? `/api/files/${key}` : null;
}

/** The gym as the staff site sees it: secrets masked, the account number masked. */
export function shapeGym(
  gym: Gym,
  actor: Actor,
  settings: OrganisationSettings,
  organisation: { id: string; name: string },
) {
  const breakFee = breakFeeFor(settings, gym);
  return {
    id: gym.gym_id,
    uuid: gym.uuid,
    name: gym.name,
    selected: gym.gym_id === actor.gymId,
    role: roleLabel(actor, gym.gym_id),
    organisation,
    logo: logoUrl(gym.logo),
    created_at: gym.created_at,
    price_change_notification_reply_to: gym.price_change_notification_reply_to ?? null,
    destination_account: gym.destination_account
      ? {
          id: gym.destination_account.account_id,
          name: gym.destination_account.name,
          bank_account_number: maskNzBankAccount(gym.destination_account.bank_account_number),
        }
      : null,
    stripe_id: gym.stripe_id ?? null,
    has_payment_account: Boolean(gym.stripe_id),
    stripe_connected_at: gym.stripe_connected_at ?? null,
    tracks_visits: gym.tracks_visits,
    place: gym.kisi_place
      ? { id: gym.kisi_place.place_id, name: gym.kisi_place.name, place_id: gym.kisi_place.place_id }
      : null,
    doors: (gym.doors ?? []).map((door) => ({
      id: door.door_id,
      integration_type: "kisi" as const,
      integration: {
        id: door.door_id,
        name: door.name,
        door_id: door.door_id,
        tracks_visits: door.tracks_visits,
      },
    })),
    branch_app_id: gym.branch_app_id ?? null,
    branch_key: gym.branch_key ?? null,
    branch_secret: maskedSecret(gym.branch_secret_enc, secretContext(gym, "branch_secret")),
    akahu_app_token: gym.akahu_app_token ?? null,
    akahu_app_secret: maskedSecret(gym.akahu_app_secret_enc, secretContext(gym, "akahu_app_secret")),
    break_fee_basis_points: gym.break_fee_basis_points ?? null,
    card_surcharge_basis_points: gym.card_surcharge_basis_points ?? null,
    card_surcharge_fixed_cents: gym.card_surcharge_fixed_cents ?? null,
    break_fee_percentage: formatBasisPoints(breakFee),
    effective: { break_fee_basis_points: breakFee, card_surcharge: cardSurchargeFor(settings, gym) },
    organisation_defaults: {
      break_fee_basis_points: settings.break_fee_basis_points,
      card_surcharge_basis_points: settings.card_surcharge_basis_points,
      card_surcharge_fixed_cents: settings.card_surcharge_fixed_cents,
    },
  };
}

export type GymView = ReturnType<typeof shapeGym>;

async function view(actor: Actor, gym: Gym) {
  const [org, counts] = await Promise.all([
    getOrganisation(gym.organisation_id),
    countsByGym(gym.organisation_id),
  ]);
  return {
    ...shapeGym(gym, actor, organisationSettings(org), { id: org.organisation_id, name: org.name }),
    ...counts(gym.gym_id),
  };
}

/** GET /api/gyms/{id}: the gym's settings page (those who may change them). */
export async function readGym(actor: Actor, gymId: string) {
  mayManage(actor, gymId);
  return view(actor, await getGym(currentOrganisation(actor), gymId));
}

async function patchGym(actor: Actor, gymId: string, set: Record<string, unknown>, remove: string[] = []) {
  const organisationId = currentOrganisation(actor);
  const key = { organisation_id: organisationId, gym_id: gymId };
  const gym = db().entities.gym;
  const request = Object.keys(set).length
    ? remove.length
      ? gym
          .patch(key)
          .set(set as never)
          .remove(remove as never)
      : gym.patch(key).set(set as never)
    : gym.patch(key).remove(remove as never);
  const { data } = await request.go({ response: "all_new" });
  return view(actor, data as Gym);
}

export async function updateGym(actor: Actor, gymId: string, input: unknown) {
  mayManage(actor, gymId);
  const values = parse(gymInput, input);
  await getGym(currentOrganisation(actor), gymId);
  const set: Record<string, unknown> = { name: values.name };
  const remove: string[] = [];
  const optional = {
    price_change_notification_reply_to: values.price_change_notification_reply_to,
    break_fee_basis_points: values.break_fee_basis_points,
    card_surcharge_basis_points: values.card_surcharge_basis_points,
    card_surcharge_fixed_cents: values.card_surcharge_fixed_cents,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value === undefined) continue;
    if (value === null) remove.push(key);
    else set[key] = value;
  }
  return patchGym(actor, gymId, set, remove);
}

/** The destination account is one per gym; `new` creates it, otherwise the id must be the gym's. */
export async function putDestinationAccount(actor: Actor, gymId: string, accountId: string, input: unknown) {
  mayManage(actor, gymId);
  const gym = await getGym(currentOrganisation(actor), gymId);
  const current = gym.destination_account?.account_id;
  if (current ? accountId !== current : accountId !== "new") throw new NotFoundError("destination account");
  const values = parse(destinationAccountInput, input);
  const saved = await patchGym(actor, gymId, {
    destination_account: { account_id: current ?? newId(), ...values, updated_at: new Date().toISOString() },
  });
  const before = gym.destination_account?.bank_account_number?.replace(/\D/g, "");
  if (before && before !== values.bank_account_number.replace(/\D/g, "")) {
    // Members' bank consents name the old account: they must consent again before paying by bank.
    const { requireBankReconsent } = await import("../payment/consent");
    await requireBankReconsent(
      currentOrganisation(actor),
      { gym_id: gymId },
      `${gym.name} has a new bank account for membership payments.`,
    );
  }
  return saved;
}

/** The gym's destination account in full, for paying into it (billing); never sent to a browser. */
export async function destinationAccountOf(organisationId: string, gymId: string) {
  const gym = await getGym(organisationId, gymId);
  return gym.destination_account
    ? {
        id: gym.destination_account.account_id,
        name: gym.destination_account.name,
        bank_account_number: gym.destination_account.bank_account_number,
      }
    : null;
}

export async function setTracksVisits(actor: Actor, gymId: string, input: unknown) {
  mayManage(actor, gymId);
  const { tracks_visits } = parse(tracksVisitsInput, input);
  await getGym(currentOrganisation(actor), gymId);
  return patchGym(actor, gymId, { tracks_visits });
}

function sniffImage(bytes: Uint8Array): keyof typeof LOGO_TYPES | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.slice(8, 12)) === "WEBP")
    return "image/webp";
  return null;
}

export const LOGO_TYPE_MESSAGE = "The logo must be a PNG, JPEG or WebP image";
export const LOGO_SIZE_MESSAGE = "The logo may be at most 5 MB";

/** POST /api/gyms/{id}/logo: PNG, JPEG or WebP (checked by content, not name) up to 5 MB. */
export async function uploadLogo(actor: Actor, gymId: string, input: { collection: unknown; file: unknown }) {
  mayManage(actor, gymId);
  if (input.collection !== "logo") throw ValidationError.field("collection", "The collection must be logo");
  const file = input.file;
  if (!file || typeof file !== "object" || typeof (file as Blob).arrayBuffer !== "function") {
    throw ValidationError.field("file", "Value is required");
  }
  if ((file as Blob).size > LOGO_MAX_BYTES) throw ValidationError.field("file", LOGO_SIZE_MESSAGE);
  const bytes = new Uint8Array(await (file as Blob).arrayBuffer());
  if (bytes.length === 0) throw ValidationError.field("file", "Value is required");
  const type = sniffImage(bytes);
  if (!type) throw ValidationError.field("file", LOGO_TYPE_MESSAGE);
  const organisationId = currentOrganisation(actor);
  await getGym(organisationId, gymId);
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 20);
  const key = `logos/${organisationId}/${gymId}/${hash}.${LOGO_TYPES[type]}`;
  await fileStore().put(key, bytes, type);
  return patchGym(actor, gymId, { logo: key });
}

/** Only logo files are served through the public files route. */
export async function readPublicFile(key: string) {
  if (!/^logos\/[0-9A-Z]{26}\/[0-9A-Z]{26}\/[0-9a-f]{20}\.(png|jpg|webp)$/.test(key))
    throw new NotFoundError("file");
  const file = await fileStore().get(key);
  if (!file) throw new NotFoundError("file");
  return file;
}

export async function setBranchConfig(actor: Actor, gymId: string, input: unknown) {
  mayManage(actor, gymId);
  const values = parse(branchConfigInput, input);
  const gym = await getGym(currentOrganisation(actor), gymId);
  const secret =
    values.branch_secret ??
    (gym.branch_secret_enc
      ? decryptSecret(gym.branch_secret_enc, secretContext(gym, "branch_secret"))
      : null);
  if (!secret) throw ValidationError.field("branch_secret", "Value is required");
  try {
    await branchProvider().checkApp({ branchKey: values.branch_key, branchSecret: secret });
  } catch (error) {
    if ((error as { kind?: string }).kind === "declined")
      throw ValidationError.field("branch_key", (error as Error).message);
    throw error;
  }
  return patchGym(actor, gymId, {
    branch_app_id: values.branch_app_id,
    branch_key: values.branch_key,
    branch_secret_enc: encryptSecret(secret, secretContext(gym, "branch_secret")),
  });
}

export async function setAkahuConfig(actor: Actor, gymId: string, input: unknown) {
  mayManage(actor, gymId);
  const values = parse(akahuConfigInput, input);
  const gym = await getGym(currentOrganisation(actor), gymId);
  if (!values.akahu_app_secret && !gym.akahu_app_secret_enc)
    throw ValidationError.field("akahu_app_secret", "Value is required");
  return patchGym(actor, gymId, {
    akahu_app_token: values.akahu_app_token,
    ...(values.akahu_app_secret
      ? {
          akahu_app_secret_enc: encryptSecret(
            values.akahu_app_secret,
            secretContext(gym, "akahu_app_secret"),
          ),
        }
      : {}),
  });
}

// ---- Stripe Connect ----------------------------------------------------------------------------

export const stripeRedirectUri = () => `${config.staffUrl}/stripe/callback`;

/** POST /api/gyms/{id}/stripe/redirect: the provider's page, with a signed ten-minute state. */
export async function startStripeConnect(actor: Actor, gymId: string) {
  mayManage(actor, gymId);
  await getGym(currentOrganisation(actor), gymId);
  const state = await signConnectState("stripe_connect", actor, gymId);
  return { url: stripeProvider().connectUrl({ state, redirectUri: stripeRedirectUri() }) };
}

/** POST /api/stripe/exchange: checks the state, exchanges the code, stores the connected account. */
export async function finishStripeConnect(actor: Actor, input: unknown) {
  const { code, state } = parse(stripeExchangeInput, input);
  const claims = await verifyConnectState("stripe_connect", actor, state);
  mayManage(actor, claims.gym);
  const organisationId = currentOrganisation(actor);
  const gym = await getGym(organisationId, claims.gym);
  const account = await stripeProvider().exchangeConnectCode(code);
  if (gym.stripe_id && gym.stripe_id !== account.stripe_user_id)
    await unlinkProviderId("stripe_account", gym.stripe_id);
  await linkProviderId("stripe_account", account.stripe_user_id, {
    organisation_id: organisationId,
    gym_id: gym.gym_id,
  });
  return patchGym(actor, gym.gym_id, {
    stripe_id: account.stripe_user_id,
    stripe_livemode: account.livemode,
    stripe_connected_at: new Date().toISOString(),
  });
}

// ---- Access control (Kisi places and doors) ---------------------------------------------------

function mayLinkPlaces(actor: Actor) {
  authorize(
    policy.useStaffArea(actor) &&
      (actor.orgRole === "admin" || actor.gymRoles.some((g) => g.role === "admin")),
    "Only organisation and gym admins may manage door access.",
  );
}

/** Kisi's places, each with the gym it is linked to (if any). */
export async function listAccessPlaces(actor: Actor, organisationId: string) {
  if (actor.organisationId !== organisationId) throw new NotFoundError("organisation");
  mayLinkPlaces(actor);
  const [places, gyms] = await Promise.all([
    kisiProvider().listPlaces(await kisiKeyOf(organisationId)),
    listGyms(organisationId),
  ]);
  return places.map((place) => {
    const gym = gyms.find((g) => g.kisi_place?.place_id === place.id);
    return {
      id: place.id,
      name: place.name,
      place_id: place.id,
      gym_id: gym?.gym_id ?? null,
      gym_name: gym?.name ?? null,
    };
  });
}

/** Kisi's locks of a place as door integrations, with tracks_visits from the linked gym. */
export async function listPlaceDoors(actor: Actor, organisationId: string, placeId: string) {
  if (actor.organisationId !== organisationId) throw new NotFoundError("organisation");
  mayLinkPlaces(actor);
  const [locks, gyms] = await Promise.all([
    kisiProvider().listLocks(await kisiKeyOf(organisationId), placeId),
    listGyms(organisationId),
  ]);
  const gym = gyms.find((g) => g.kisi_place?.place_id === placeId);
  return locks.map((lock) => {
    const stored = gym?.doors?.find((d) => d.door_id === lock.id);
    return {
      id: lock.id,
      integration_type: "kisi" as const,
      integration: {
        id: lock.id,
        name: lock.name,
        door_id: lock.id,
        tracks_visits: stored?.tracks_visits ?? false,
      },
    };
  });
}

/**
 * POST /api/gyms/{id}/access-control/places: links a Kisi place to the gym (or unlinks with a
 * null place_id) and sets which of its doors track visits. A place serves one gym.
 */
export async function linkPlace(actor: Actor, gymId: string, input: unknown) {
  mayManage(actor, gymId);
  const { place_id, doors } = parse(linkPlaceInput, input);
  const organisationId = currentOrganisation(actor);
  const gym = await getGym(organisationId, gymId);
  const previous = gym.kisi_place?.place_id;
  if (place_id === null) {
    if (previous) await unlinkProviderId("kisi_place", previous);
    return patchGym(actor, gymId, {}, ["kisi_place", "doors"]);
  }
  const apiKey = await kisiKeyOf(organisationId);
  const [place, gyms] = await Promise.all([
    kisiProvider().getPlace(apiKey, place_id),
    listGyms(organisationId),
  ]);
  if (!place) throw ValidationError.field("place_id", "Kisi has no such place");
  const other = gyms.find((g) => g.gym_id !== gymId && g.kisi_place?.place_id === place_id);
  if (other) throw ValidationError.field("place_id", `This place is already linked to ${other.name}`);
  const locks = await kisiProvider().listLocks(apiKey, place_id);
  const unknown = doors.filter((d) => !locks.some((lock) => lock.id === d.id));
  if (unknown.length) throw ValidationError.field("doors", "Some doors are not in this place");
  const keep = previous === place_id ? (gym.doors ?? []) : [];
  const stored = locks.map((lock) => ({
    door_id: lock.id,
    name: lock.name,
    tracks_visits:
      doors.find((d) => d.id === lock.id)?.tracks_visits ??
      keep.find((d) => d.door_id === lock.id)?.tracks_visits ??
      false,
  }));
  if (previous && previous !== place_id) await unlinkProviderId("kisi_place", previous);
  await linkProviderId("kisi_place", place_id, { organisation_id: organisationId, gym_id: gymId });
  return patchGym(actor, gymId, {
    kisi_place: { place_id, name: place.name, linked_at: new Date().toISOString() },
    doors: stored,
  });
}
