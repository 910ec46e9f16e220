/** A gym's logo: upload (checked by content) and the public files route. */
import { createHash } from "node:crypto";
import type { Actor } from "../auth/actor";
import { currentOrganisation } from "../auth/policy";
import { LOGO_MAX_BYTES, LOGO_TYPES } from "../contract/gym";
import { NotFoundError, ValidationError } from "../errors";
import { fileStore } from "../providers/files/index";
import { getGym } from "./service";
import { mayManage, patchGym } from "./settings";

export function sniffImage(bytes: Uint8Array): keyof typeof LOGO_TYPES | null {
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
