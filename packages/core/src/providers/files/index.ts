import { config } from "../../config";
import { localFileStore } from "./local";
import type { FileStore } from "./port";
import { s3FileStore } from "./s3";

export type { FileStore, StoredFile } from "./port";

let store: FileStore | undefined;

/** S3 when the stage has an uploads bucket, else the local uploads folder. */
export function fileStore(): FileStore {
  store ??= config.uploadsBucket ? s3FileStore(config.uploadsBucket) : localFileStore(config.uploadsDir);
  return store;
}

export function setFileStore(next: FileStore | undefined) {
  store = next;
}
