import { type Stub, startStub } from "./server";

/**
 * Kisi's REST API: `GET /places`, `GET /places/{id}`, `GET /locks?place_id=`, `GET /events/{id}`
 * with `Authorization: KISI-LOGIN <key>`.
 */
export interface KisiStub extends Stub {
  apiKey: string;
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
  const stub = await startStub((req) => {
    if (req.headers.authorization !== `KISI-LOGIN ${apiKey}`)
      return { status: 401, body: { code: "000", error: "Unauthorized" } };
    if (req.method !== "GET") return null;
    if (req.path === "/places") return { status: 200, body: places };
    const place = req.path.match(/^\/places\/(\d+)$/);
    if (place) {
      const found = places.find((p) => String(p.id) === place[1]);
      return found
        ? { status: 200, body: found }
        : { status: 404, body: { code: "000", error: "Not found" } };
    }
    const event = req.path.match(/^\/events\/(\d+)$/);
    if (event) {
      const found = events.find((e) => String(e.id) === event[1]);
      return found
        ? { status: 200, body: found }
        : { status: 404, body: { code: "000", error: "Not found" } };
    }
    if (req.path === "/locks")
      return {
        status: 200,
        body: locks.filter((lock) => String(lock.place_id) === req.query.get("place_id")),
      };
    return null;
  });
  return { ...stub, apiKey, events };
}
