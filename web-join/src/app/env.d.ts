/// <reference types="vite/client" />

interface ImportMetaEnv {
  /**
   * The staff site's origin, e.g. "https://staff.example.nz". When unset it is derived from the
   * join site's address (see `siteUrl` in @gym/web/auth).
   */
  readonly VITE_STAFF_URL?: string;
}
