/**
 * Uploaded files (gym logos now; profile pictures may share it): S3 in AWS, a local folder
 * (`UPLOADS_DIR`, default `.data/uploads`) elsewhere. Keys are paths like
 * `logos/<organisation>/<gym>/<hash>.png`; content-addressed names make every URL immutable.
 */
export interface StoredFile {
  body: Uint8Array;
  contentType: string;
}

export interface FileStore {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<StoredFile | null>;
}
