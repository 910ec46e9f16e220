/**
 * Kisi, the door access-control provider, configured once per organisation with its API key.
 * One port for everything the product does with Kisi: places and their locks (doors) now;
 * member credentials (issue, revoke) and unlock events are added here by the visits work.
 */
export interface KisiPlace {
  id: string;
  name: string;
}

export interface KisiLock {
  id: string;
  name: string;
  place_id: string;
}

/** An event as Kisi's API reports it (what a webhook claims is checked against this). */
export interface KisiEvent {
  id: string;
  /** e.g. "unlock". */
  action: string | null;
  object_type: string | null;
  place_id: string | null;
  lock_id: string | null;
  actor_id: string | null;
  created_at: string | null;
}

export interface KisiPort {
  readonly mode: "real" | "simulated";
  /** Every place the key can see. Declines (ProviderError) a key Kisi does not accept. */
  listPlaces(apiKey: string): Promise<KisiPlace[]>;
  getPlace(apiKey: string, placeId: string): Promise<KisiPlace | null>;
  listLocks(apiKey: string, placeId: string): Promise<KisiLock[]>;
  /**
   * The event with this id as Kisi recorded it (`GET /events/{id}`), or null when Kisi has no
   * such event for this key. An unlock that arrives by webhook becomes a visit only once Kisi
   * confirms it here.
   */
  getEvent(apiKey: string, eventId: string): Promise<KisiEvent | null>;
}
