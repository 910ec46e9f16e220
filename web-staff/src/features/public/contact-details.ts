/**
 * Who to write to. Set at build time (`VITE_SUPPORT_EMAIL`, `VITE_PRIVACY_EMAIL`) for the
 * operator's real addresses; the defaults are placeholders on the reserved example domain.
 */
export const SUPPORT_EMAIL = import.meta.env.VITE_SUPPORT_EMAIL || "support@example.com";
export const PRIVACY_EMAIL = import.meta.env.VITE_PRIVACY_EMAIL || "privacy@example.com";
export const PRIVACY_POLICY_UPDATED = "2026-01-15";
