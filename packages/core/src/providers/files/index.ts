import { config } from "../../config";
import { localFileStore } from "./local";
import type { FileStore } from "./port";
import { s3FileStore } from "./s3";

export type { FileStore, StoredFile } from "./port";

/** A store set by hand (tests), else the one made for the configuration it was made from. */
let chosen: FileStore | undefined;
let made: { from: string; store: FileStore } | undefined;

/**
 * S3 when the stage has an uploads bucket, else the local uploads folder. Made once per
 * configuration: a process whose uploads folder changes (test files sharing one process) gets the
 * store of the folder it has now, the one the local download route reads.
 */
export function fileStore(): FileStore {
  if (chosen) return chosen;
  const bucket = config.uploadsBucket;
  const from = bucket ? `s3:${bucket}` : `dir:${config.uploadsDir}`;
  if (made?.from !== from)
    made = { from, store: bucket ? s3FileStore(bucket) : localFileStore(config.uploadsDir) };
  return made.store;
}

export function setFileStore(next: FileStore | undefined) {
  chosen = next;
}
