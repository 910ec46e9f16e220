/**
 * The guest flag kept in localStorage (spec 000 §4): "isGuest" or "isNotGuest". It remembers
 * the last answer of `GET /api/me` across page loads, so a guest page can render at once for a
 * guest and wait briefly for someone who was signed in (rather than flash the sign-in form).
 */
export const GUEST_FLAG_KEY = "guest";
export type GuestFlag = "isGuest" | "isNotGuest";

export function readGuestFlag(): GuestFlag | null {
  try {
    const value = globalThis.localStorage?.getItem(GUEST_FLAG_KEY);
    return value === "isGuest" || value === "isNotGuest" ? value : null;
  } catch {
    return null; // storage disabled (private mode, policies)
  }
}

export function writeGuestFlag(flag: GuestFlag): void {
  try {
    globalThis.localStorage?.setItem(GUEST_FLAG_KEY, flag);
  } catch {
    // storage disabled: the flag is only a hint
  }
}
