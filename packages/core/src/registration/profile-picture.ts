/** The member's profile photo: uploading it (for the organisation they are joining), and reading it (its owner, or staff of that organisation). */
import { createHash } from "node:crypto";
import type { Actor } from "../auth/actor";
import { PROFILE_PICTURE_MAX_BYTES } from "../contract/registration";
import { NotFoundError, ValidationError } from "../errors";
import { sniffImage } from "../gym/logo";
import { fileStore } from "../providers/files/index";
import { profilePictureUrl } from "../user/picture";
import { getProfile, saveProfile } from "../user/profile";

/**
 * `POST /api/profile-picture`: the member's photo (JPEG, PNG or WebP by content, at most 5 MB;
 * the join site sends a square JPEG it has already cropped and shrunk).
 */
export async function uploadProfilePicture(actor: Actor, file: unknown) {
  if (!file || typeof file !== "object" || typeof (file as Blob).arrayBuffer !== "function")
    throw ValidationError.field("file", "Value is required");
  if ((file as Blob).size > PROFILE_PICTURE_MAX_BYTES)
    throw ValidationError.field("file", "The photo may be at most 5 MB");
  const bytes = new Uint8Array(await (file as Blob).arrayBuffer());
  if (!bytes.length) throw ValidationError.field("file", "Value is required");
  const type = sniffImage(bytes);
  if (!type) throw ValidationError.field("file", "The photo must be a JPEG, PNG or WebP image");
  const ext = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" }[type];
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 20);
  const organisationId = actor.organisationId;
  if (!organisationId) throw ValidationError.field("file", "Choose your gym before adding a photo.");
  // Each organisation gets the photo taken for it: another organisation's staff never read it.
  const key = `profile-pictures/${organisationId}/${actor.userId}/${hash}.${ext}`;
  await fileStore().put(key, bytes, type);
  await saveProfile(organisationId, actor.userId, { profile_picture: key });
  return { profile_picture: profilePictureUrl(key)! };
}

const ID = /^[0-9A-Z]{26}$/;
const FILE = /^[0-9a-f]{20}\.(png|jpg|webp)$/;

/**
 * A profile photo by its key (`profile-pictures/[<organisation>/]<user>/<file>`): its owner may
 * see it; staff may see it only when their current organisation's record of the person names that
 * very key (a photo given to another organisation is not theirs to read). Anyone else: 404.
 */
export async function readProfilePicture(
  actor: Actor,
  path: { organisationId?: string; userId: string; file: string },
) {
  const { organisationId, userId, file } = path;
  if (!ID.test(userId) || !FILE.test(file) || (organisationId !== undefined && !ID.test(organisationId)))
    throw new NotFoundError("file");
  const key = `profile-pictures/${organisationId ? `${organisationId}/` : ""}${userId}/${file}`;
  const mine = actor.userId === userId;
  const staffHere =
    actor.isStaff && actor.organisationId && (organisationId ?? actor.organisationId) === actor.organisationId
      ? (await getProfile(actor.organisationId, userId))?.profile_picture === key
      : false;
  if (!mine && !staffHere) throw new NotFoundError("file");
  const stored = await fileStore().get(key);
  if (!stored) throw new NotFoundError("file");
  return stored;
}
