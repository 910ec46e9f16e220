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

export interface KisiPort {
  readonly mode: "real" | "simulated";
  /** Every place the key can see. Declines (ProviderError) a key Kisi does not accept. */
  listPlaces(apiKey: string): Promise<KisiPlace[]>;
  getPlace(apiKey: string, placeId: string): Promise<KisiPlace | null>;
  listLocks(apiKey: string, placeId: string): Promise<KisiLock[]>;
}
