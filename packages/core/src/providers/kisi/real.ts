import { ProviderError } from "../errors";
import type { KisiEvent, KisiLock, KisiMemberAccess, KisiPlace, KisiPort } from "./port";
import { MEMBER_GROUP_NAME } from "./port";

type RawEvent = {
  id: number | string;
  action?: string | null;
  object_type?: string | null;
  object_id?: number | string | null;
  place_id?: number | string | null;
  lock_id?: number | string | null;
  actor_id?: number | string | null;
  success?: boolean | null;
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
    success: typeof raw.success === "boolean" ? raw.success : null,
    created_at: text(raw.created_at),
  };
}

interface KisiMember {
  id: number;
  user_id: number;
  name: string;
  email: string;
  access_enabled?: boolean;
}
interface KisiGroup {
  id: number;
  name: string;
  place_id: number | null;
}
interface KisiRoleAssignment {
  id: number;
  user_id: number;
  role_id: string;
  group_id: number | null;
}

const MEMBER_NOTE_PREFIX = "gym-member:";

/**
 * The real door provider over Kisi's REST API with fetch (the vendor's `kisi-client` package
 * pins an old axios; the few calls needed here do not justify it). Auth: `KISI-LOGIN <key>`.
 *
 * Member access: a member is a Kisi member of the organisation (`GET /members?query=<email>`,
 * `POST /members`, with our user id in `notes`); access to a place is a `group_basic` role
 * assignment in the place's "Members" group (`GET /groups?place_id=`, created with
 * `POST /groups` and one `POST /group_locks` per lock of the place when missing;
 * `GET|POST /role_assignments`, `DELETE /role_assignments/{id}`). A member an admin disabled in
 * Kisi (`access_enabled: false`) stays disabled: memberAccess then answers no access.
 */
export function realKisi(options: { apiBase?: string; memberGroupName?: string } = {}): KisiPort {
  const base = options.apiBase ?? "https://api.kisi.io";
  const groupName = options.memberGroupName ?? MEMBER_GROUP_NAME;

  async function call<T>(
    apiKey: string,
    path: string,
    init: { method?: "GET" | "POST" | "DELETE"; body?: unknown } = {},
  ): Promise<T> {
    let response: Response;
    try {
      response = await fetch(new URL(path, base), {
        method: init.method ?? "GET",
        headers: {
          Authorization: `KISI-LOGIN ${apiKey}`,
          Accept: "application/json",
          ...(init.body ? { "Content-Type": "application/json" } : {}),
        },
        body: init.body ? JSON.stringify(init.body) : undefined,
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
    if (response.status === 422 || response.status === 400) {
      throw new ProviderError(
        "kisi",
        "Kisi did not accept the change.",
        "declined",
        `HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`,
      );
    }
    if (!response.ok) {
      throw new ProviderError(
        "kisi",
        "Kisi could not be reached. Please try again.",
        "unavailable",
        `HTTP ${response.status}`,
      );
    }
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }

  const notFound = (error: unknown) => error instanceof ProviderError && error.detail === "HTTP 404";

  async function findMember(apiKey: string, email: string): Promise<KisiMember | null> {
    const found = await call<KisiMember[]>(apiKey, `/members?query=${encodeURIComponent(email)}&limit=100`);
    return found.find((m) => m.email?.toLowerCase() === email.toLowerCase()) ?? null;
  }

  async function placeGroups(apiKey: string, placeId: string): Promise<KisiGroup[]> {
    const groups = await call<KisiGroup[]>(
      apiKey,
      `/groups?place_id=${encodeURIComponent(placeId)}&limit=100`,
    );
    return groups.filter((g) => String(g.place_id) === placeId);
  }

  /** The place's members group, created with every lock of the place when missing. */
  async function memberGroup(apiKey: string, placeId: string, create: boolean): Promise<KisiGroup | null> {
    const existing = (await placeGroups(apiKey, placeId)).find((g) => g.name === groupName);
    if (existing || !create) return existing ?? null;
    const group = await call<KisiGroup>(apiKey, "/groups", {
      method: "POST",
      body: {
        group: {
          name: groupName,
          description: "Gym members with an active membership (managed by the membership system)",
          place_id: Number(placeId),
        },
      },
    });
    const locks = await call<{ id: number }[]>(
      apiKey,
      `/locks?place_id=${encodeURIComponent(placeId)}&limit=100`,
    );
    for (const lock of locks) {
      await call(apiKey, "/group_locks", {
        method: "POST",
        body: { group_lock: { group_id: group.id, lock_id: lock.id } },
      });
    }
    return group;
  }

  const assignments = (apiKey: string, userId: number | string, groupId: number | string) =>
    call<KisiRoleAssignment[]>(
      apiKey,
      `/role_assignments?user_id=${encodeURIComponent(String(userId))}&group_id=${encodeURIComponent(String(groupId))}`,
    );

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
    async ensureMemberAccess(apiKey, input): Promise<KisiMemberAccess> {
      const group = await memberGroup(apiKey, input.place_id, true);
      if (!group) throw new ProviderError("kisi", "Kisi has no such place.", "declined", "no group");
      const member =
        (await findMember(apiKey, input.email)) ??
        (await call<KisiMember>(apiKey, "/members", {
          method: "POST",
          body: {
            member: {
              name: input.name,
              email: input.email,
              send_emails: true,
              confirm: true,
              access_enabled: true,
              notes: `${MEMBER_NOTE_PREFIX}${input.external_id}`,
            },
          },
        }));
      const existing = (await assignments(apiKey, member.user_id, group.id))[0];
      const assignment =
        existing ??
        (await call<KisiRoleAssignment>(apiKey, "/role_assignments", {
          method: "POST",
          body: {
            role_assignment: {
              user_id: member.user_id,
              role_id: "group_basic",
              group_id: group.id,
              notify: false,
            },
          },
        }));
      return { user_id: String(member.user_id), group_or_credential_id: String(assignment.id) };
    },
    async revokeMemberAccess(apiKey, input) {
      const member = await findMember(apiKey, input.email);
      if (!member) return;
      let group: KisiGroup | null;
      try {
        group = await memberGroup(apiKey, input.place_id, false);
      } catch (error) {
        if (notFound(error)) return;
        throw error;
      }
      if (!group) return;
      for (const assignment of await assignments(apiKey, member.user_id, group.id)) {
        try {
          await call(apiKey, `/role_assignments/${assignment.id}`, { method: "DELETE" });
        } catch (error) {
          if (!notFound(error)) throw error;
        }
      }
    },
    async memberAccess(apiKey, input) {
      const member = await findMember(apiKey, input.email);
      if (!member) return { has_access: false, credential_ids: [] };
      const groups = new Set((await placeGroups(apiKey, input.place_id)).map((g) => g.id));
      const granted = (
        await call<KisiRoleAssignment[]>(
          apiKey,
          `/role_assignments?user_id=${encodeURIComponent(String(member.user_id))}&scope=group`,
        )
      ).filter((a) => a.group_id !== null && groups.has(a.group_id));
      return {
        has_access: member.access_enabled !== false && granted.length > 0,
        credential_ids: granted.map((a) => String(a.id)),
      };
    },
  };
}
