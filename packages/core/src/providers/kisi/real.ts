import { ProviderError } from "../errors";
import type { KisiEvent, KisiLock, KisiPlace, KisiPort } from "./port";

type RawEvent = {
  id: number | string;
  action?: string | null;
  object_type?: string | null;
  object_id?: number | string | null;
  place_id?: number | string | null;
  lock_id?: number | string | null;
  actor_id?: number | string | null;
  created_at?: string | null;
  references?: { place_id?: number | string | null; lock_id?: number | string | null } | null;
};

const text = (value: unknown) => (value === undefined || value === null ? null : String(value));

/** Kisi's event, in the port's shape (place and lock may sit at the top or under references). */
export function kisiEvent(raw: RawEvent): KisiEvent {
  return {
    id: String(raw.id),
    action: text(raw.action),
    object_type: text(raw.object_type),
    place_id: text(raw.place_id ?? raw.references?.place_id),
    lock_id: text(
      raw.lock_id ?? raw.references?.lock_id ?? (raw.object_type === "Lock" ? raw.object_id : null),
    ),
    actor_id: text(raw.actor_id),
    created_at: text(raw.created_at),
  };
}

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
    async getEvent(apiKey, eventId) {
      if (!/^\w{1,64}$/.test(eventId)) return null;
      try {
        return kisiEvent(await call<RawEvent>(apiKey, `/events/${encodeURIComponent(eventId)}`));
      } catch (error) {
        if (error instanceof ProviderError && error.detail === "HTTP 404") return null;
        throw error;
      }
    },
  };
}
