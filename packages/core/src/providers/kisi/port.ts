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
  /** Whether the unlock opened the door (Kisi's `success`); null when Kisi does not say. */
  success: boolean | null;
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

  // Member door access at a place (the organisation's API key). Idempotent: calling again with
  // the same member changes nothing and answers the same ids.

  /**
   * Lets the member through the place's doors: finds or creates the Kisi user by email (our user
   * id as its reference) and gives them the member role at the place (or the place's members group).
   */
  ensureMemberAccess(apiKey: string, input: KisiMemberInput): Promise<KisiMemberAccess>;
  /** Takes the member's access at the place away (their role or group membership); nothing to take is fine. */
  revokeMemberAccess(
    apiKey: string,
    input: { place_id: string; external_id: string; email: string },
  ): Promise<void>;
  /** Whether the member (by email) can open the place's doors now, and through which grants. */
  memberAccess(
    apiKey: string,
    input: { place_id: string; email: string },
  ): Promise<{ has_access: boolean; credential_ids: string[] }>;
}

/** The group at each place whose members the product manages (created when missing). */
export const MEMBER_GROUP_NAME = "Members";

export interface KisiMemberInput {
  place_id: string;
  email: string;
  name: string;
  /** Our user id, kept on the Kisi user so the two can be matched. */
  external_id: string;
}

export interface KisiMemberAccess {
  /** Kisi's user id. */
  user_id: string;
  /** The role assignment (or group membership) that grants the access. */
  group_or_credential_id: string;
}
