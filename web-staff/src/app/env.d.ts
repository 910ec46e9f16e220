/// <reference types="vite/client" />

interface ImportMetaEnv {
  /**
   * The join (member registration) site's origin, e.g. "https://join.example.nz". When unset it
   * is derived from the staff site's address (see `siteUrl` in @gym/web/auth).
   */
  readonly VITE_JOIN_URL?: string;
  /** Shown on the contact and privacy pages; defaults in features/public/contact-details.ts. */
  readonly VITE_SUPPORT_EMAIL?: string;
  readonly VITE_PRIVACY_EMAIL?: string;
}
