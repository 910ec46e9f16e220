import { type Stub, startStub } from "./server";

/**
 * Kisi's REST API with `Authorization: KISI-LOGIN <key>`: `GET /places`, `GET /places/{id}`,
 * `GET /locks?place_id=`, `GET /events/{id}`; for member access `GET /members?query=`, `POST /members`,
 * `GET /groups?place_id=`, `POST /groups`, `POST /group_locks`,
 * `GET /role_assignments?user_id=&group_id=|scope=group`, `POST /role_assignments`,
 * `DELETE /role_assignments/{id}` (204). Place 9002 already has a "Members" group; 9001 has none.
 */
export interface KisiStub extends Stub {
  apiKey: string;
  /** Turns a member's organisation-wide access off, as an admin can in Kisi. */
  disableMember(email: string): void;
  /** Events Kisi has recorded (an unlock at a door), as its API answers them. */
  events: Record<string, unknown>[];
}

const places = [
  { id: 9001, name: "Stub building", organization_id: 1 },
  { id: 9002, name: "Stub annex", organization_id: 1 },
];
const locks = [
  { id: 7001, name: "Front door", place_id: 9001 },
  { id: 7002, name: "Back door", place_id: 9001 },
  { id: 7003, name: "Annex door", place_id: 9002 },
];

interface Member {
  id: number;
  user_id: number;
  name: string;
  email: string;
  access_enabled: boolean;
  notes: string | null;
}
interface Group {
  id: number;
  name: string;
  place_id: number;
  description: string | null;
}
interface Assignment {
  id: number;
  user_id: number;
  role_id: string;
  group_id: number;
}

export async function startKisiStub(apiKey = "kisi_stub_key"): Promise<KisiStub> {
  const events: Record<string, unknown>[] = [
    {
      id: 8001,
      action: "unlock",
      object_type: "Lock",
      object_id: 7001,
      actor_id: 31,
      created_at: "2026-01-05T07:30:00.000Z",
      references: { place_id: 9001, lock_id: 7001 },
    },
  ];
  let next = 100;
  const members: Member[] = [];
  const groups: Group[] = [{ id: 8002, name: "Members", place_id: 9002, description: null }];
  const groupLocks: { id: number; group_id: number; lock_id: number }[] = [
    { id: 8102, group_id: 8002, lock_id: 7003 },
  ];
  const assignments: Assignment[] = [];
  const json = (body: string) => JSON.parse(body || "{}");
  const stub = await startStub((req) => {
    if (req.headers.authorization !== `KISI-LOGIN ${apiKey}`)
      return { status: 401, body: { code: "000", error: "Unauthorized" } };
    const notFound = { status: 404, body: { code: "000", error: "Not found" } };
    if (req.method === "GET") {
      const event = req.path.match(/^\/events\/(\d+)$/);
      if (event) {
        const found = events.find((e) => String(e.id) === event[1]);
        return found ? { status: 200, body: found } : notFound;
      }
      if (req.path === "/places") return { status: 200, body: places };
      const place = req.path.match(/^\/places\/(\d+)$/);
      if (place) {
        const found = places.find((p) => String(p.id) === place[1]);
        return found ? { status: 200, body: found } : notFound;
      }
      if (req.path === "/locks")
        return {
          status: 200,
          body: locks.filter((lock) => String(lock.place_id) === req.query.get("place_id")),
        };
      if (req.path === "/members") {
        const query = (req.query.get("query") ?? "").toLowerCase();
        return { status: 200, body: members.filter((m) => m.email.toLowerCase().includes(query)) };
      }
      if (req.path === "/groups") {
        const placeId = req.query.get("place_id");
        return { status: 200, body: groups.filter((g) => !placeId || String(g.place_id) === placeId) };
      }
      if (req.path === "/role_assignments") {
        const userId = req.query.get("user_id");
        const groupId = req.query.get("group_id");
        return {
          status: 200,
          body: assignments
            .filter((a) => String(a.user_id) === userId)
            .filter((a) => !groupId || String(a.group_id) === groupId)
            .map((a) => ({ ...a, group: groups.find((g) => g.id === a.group_id) })),
        };
      }
      return null;
    }
    if (req.method === "POST") {
      const body = json(req.body);
      if (req.path === "/members") {
        const member = body.member ?? {};
        if (!member.email) return { status: 422, body: { code: "000", errors: { email: ["is missing"] } } };
        const created: Member = {
          id: next++,
          user_id: next++,
          name: member.name,
          email: member.email,
          access_enabled: member.access_enabled !== false,
          notes: member.notes ?? null,
        };
        members.push(created);
        return { status: 200, body: created };
      }
      if (req.path === "/groups") {
        const group = body.group ?? {};
        if (!places.some((p) => p.id === Number(group.place_id))) return notFound;
        const created: Group = {
          id: next++,
          name: group.name,
          place_id: Number(group.place_id),
          description: group.description ?? null,
        };
        groups.push(created);
        return { status: 200, body: created };
      }
      if (req.path === "/group_locks") {
        const link = body.group_lock ?? {};
        if (!groups.some((g) => g.id === link.group_id) || !locks.some((l) => l.id === link.lock_id))
          return notFound;
        const created = { id: next++, group_id: link.group_id, lock_id: link.lock_id };
        groupLocks.push(created);
        return { status: 200, body: created };
      }
      if (req.path === "/role_assignments") {
        const assignment = body.role_assignment ?? {};
        if (!groups.some((g) => g.id === assignment.group_id)) return notFound;
        if (!members.some((m) => m.user_id === assignment.user_id)) return notFound;
        if (assignments.some((a) => a.user_id === assignment.user_id && a.group_id === assignment.group_id))
          return { status: 422, body: { code: "000", errors: { user: ["has already been taken"] } } };
        const created: Assignment = {
          id: next++,
          user_id: assignment.user_id,
          role_id: assignment.role_id,
          group_id: assignment.group_id,
        };
        assignments.push(created);
        return { status: 200, body: created };
      }
      return null;
    }
    if (req.method === "DELETE") {
      const one = req.path.match(/^\/role_assignments\/(\d+)$/);
      if (!one) return null;
      const index = assignments.findIndex((a) => String(a.id) === one[1]);
      if (index < 0) return notFound;
      assignments.splice(index, 1);
      return { status: 204, body: null };
    }
    return null;
  });
  return {
    ...stub,
    apiKey,
    events,
    disableMember(email) {
      for (const m of members) if (m.email === email) m.access_enabled = false;
    },
  };
}
