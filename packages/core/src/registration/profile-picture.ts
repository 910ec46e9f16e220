/** The member's profile photo: uploading it, and reading it (its owner or staff of their organisation). */
import { createHash } from "node:crypto";
import type { Actor } from "../auth/actor";
import { PROFILE_PICTURE_MAX_BYTES } from "../contract/registration";
import { db } from "../db/service";
import { NotFoundError, ValidationError } from "../errors";
import { sniffImage } from "../gym/logo";
import { fileStore } from "../providers/files/index";
import { profilePictureUrl } from "../user/picture";
import { roleIn } from "../user/roles";
import { getUser } from "../user/service";

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
  const key = `profile-pictures/${actor.userId}/${hash}.${ext}`;
  await fileStore().put(key, bytes, type);
  await db().entities.user.patch({ user_id: actor.userId }).set({ profile_picture: key }).go();
  return { profile_picture: profilePictureUrl(key)! };
}

/**
 * A profile photo: its owner, or staff of an organisation the person belongs to (by the
 * staff's current organisation), may see it; anyone else is answered 404.
 */
export async function readProfilePicture(actor: Actor, userId: string, file: string) {
  if (!/^[0-9A-Z]{26}$/.test(userId) || !/^[0-9a-f]{20}\.(png|jpg|webp)$/.test(file))
    throw new NotFoundError("file");
  const mine = actor.userId === userId;
  const staffOfTheirs =
    actor.isStaff && actor.organisationId ? Boolean(await roleIn(actor.organisationId, userId)) : false;
  if (!mine && !staffOfTheirs) throw new NotFoundError("file");
  const user = await getUser(userId).catch(() => null);
  const key = `profile-pictures/${userId}/${file}`;
  if (!user || user.profile_picture !== key) throw new NotFoundError("file");
  const stored = await fileStore().get(key);
  if (!stored) throw new NotFoundError("file");
  return stored;
}
