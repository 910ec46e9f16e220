import { ProviderError } from "../errors";
import type { KisiLock, KisiPlace, KisiPort } from "./port";

/**
 * The real door provider over Kisi's REST API with fetch (the vendor's `kisi-client` package
 * pins an old axios; the few calls needed here do not justify it). Auth: `KISI-LOGIN <key>`.
 */
export function realKisi(options: { apiBase?: string } = {}): KisiPort {
  const base = options.apiBase ?? "https://api.kisi.io";

  async function call<T>(apiKey: string, path: string): Promise<T> {
    let response: Response;
    try {
      response = await fetch(new URL(path, base), {
        headers: { Authorization: `KISI-LOGIN ${apiKey}`, Accept: "application/json" },
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      throw new ProviderError(
        "kisi",
        "Kisi could not be reached. Please try again.",
        "unavailable",
        (error as Error).message,
      );
    }
    if (response.status === 401 || response.status === 403) {
      throw new ProviderError(
        "kisi",
        "Kisi did not accept this API key.",
        "declined",
        `HTTP ${response.status}`,
      );
    }
    if (response.status === 404)
      throw new ProviderError("kisi", "Kisi has no such place.", "declined", "HTTP 404");
    if (!response.ok) {
      throw new ProviderError(
        "kisi",
        "Kisi could not be reached. Please try again.",
        "unavailable",
        `HTTP ${response.status}`,
      );
    }
    return (await response.json()) as T;
  }

  const place = (p: { id: number | string; name: string }): KisiPlace => ({ id: String(p.id), name: p.name });

  return {
    mode: "real",
    async listPlaces(apiKey) {
      const places = await call<{ id: number; name: string }[]>(apiKey, "/places?limit=100");
      return places.map(place);
    },
    async getPlace(apiKey, placeId) {
      try {
        return place(
          await call<{ id: number; name: string }>(apiKey, `/places/${encodeURIComponent(placeId)}`),
        );
      } catch (error) {
        if (error instanceof ProviderError && error.detail === "HTTP 404") return null;
        throw error;
      }
    },
    async listLocks(apiKey, placeId): Promise<KisiLock[]> {
      const locks = await call<{ id: number; name: string; place_id: number }[]>(
        apiKey,
        `/locks?place_id=${encodeURIComponent(placeId)}&limit=100`,
      );
      return locks.map((lock) => ({ id: String(lock.id), name: lock.name, place_id: String(lock.place_id) }));
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
