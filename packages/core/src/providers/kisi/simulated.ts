import { ProviderError } from "../errors";
import type { KisiLock, KisiPlace, KisiPort } from "./port";

/** The simulated Kisi account: two places with a few locks each. */
export const SIMULATED_KISI_PLACES: KisiPlace[] = [
  { id: "41001", name: "Ponsonby Road building" },
  { id: "41002", name: "Newmarket building" },
];
export const SIMULATED_KISI_LOCKS: KisiLock[] = [
  { id: "51001", name: "Front door", place_id: "41001" },
  { id: "51002", name: "Studio door", place_id: "41001" },
  { id: "51003", name: "Staff room", place_id: "41001" },
  { id: "52001", name: "Main entrance", place_id: "41002" },
  { id: "52002", name: "Car park door", place_id: "41002" },
];

/**
 * The simulated door provider: any key that starts with `kisi_` is accepted (as Kisi answers
 * 401 to an unknown key, so does this); answers are asynchronous like the real API.
 */
export function simulatedKisi(): KisiPort {
  const check = async (apiKey: string) => {
    await Promise.resolve();
    if (!apiKey.startsWith("kisi_"))
      throw new ProviderError("kisi", "Kisi did not accept this API key.", "declined", "HTTP 401");
  };
  return {
    mode: "simulated",
    async listPlaces(apiKey) {
      await check(apiKey);
      return SIMULATED_KISI_PLACES.map((p) => ({ ...p }));
    },
    async getPlace(apiKey, placeId) {
      await check(apiKey);
      return SIMULATED_KISI_PLACES.find((p) => p.id === placeId) ?? null;
    },
    async listLocks(apiKey, placeId) {
      await check(apiKey);
      return SIMULATED_KISI_LOCKS.filter((lock) => lock.place_id === placeId).map((lock) => ({ ...lock }));
    },
    async ensureMemberAccess() {
      throw new Error("ensureMemberAccess: not implemented yet");
    },
    async revokeMemberAccess() {
      throw new Error("revokeMemberAccess: not implemented yet");
    },
    async memberAccess() {
      throw new Error("memberAccess: not implemented yet");
    },
  };
}
