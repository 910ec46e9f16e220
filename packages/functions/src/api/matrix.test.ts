/**
 * The standing attack suite's role × route matrix. Every route of the OpenAPI document is called
 * as an organisation admin, a gym admin of another gym, a personal trainer, a member and another
 * organisation's admin, with ids of this organisation's records (at one gym, Ponsonby), and each
 * answer is what the route's row in the route table (route-policy.ts) says:
 *  - a role the row's audience leaves out: 403 (the helper refuses before the handler);
 *  - another organisation's admin, allowed by role, on a route naming this organisation's ids: 404;
 *  - a gym admin of another gym on a `gym-admin` route: refused, never done (its target, Ponsonby's
 *    record in the path or the example's organisation-wide one in the body, is not theirs);
 *  - anyone else allowed: never 401 or 403 (the call reaches the service: 2xx, 404, 409, 422 …).
 * Public and session routes answer the same whoever calls (the isolation test covers them); a route
 * without a row fails here and in route-policy.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useTestApi } from "../../../../tests/support/api";
import type { HttpClient } from "../../../../tests/support/http";
import {
  type DocumentedOperation,
  documentedBody,
  documentedOperations,
} from "../../../../tests/support/openapi-operations";
import { type AudienceName, audiences, LOCAL_ONLY_PREFIX, routePolicy } from "./route-policy";

const api = useTestApi();

type Caller = "orgAdmin" | "otherGymAdmin" | "trainer" | "member" | "outsider";
/** Each caller's role kind in the route table's terms. */
const kindOf = {
  orgAdmin: "org-admin",
  otherGymAdmin: "gym-admin",
  trainer: "trainer",
  member: "member",
  outsider: "org-admin",
} as const;

type Operation = DocumentedOperation;

const missing = "01HZZZZZZZZZZZZZZZZZZZZZZZ";
let clients: Record<Caller, HttpClient>;
let ids: Record<string, string>;
let operations: Operation[];

beforeAll(async () => {
  const { seedIfEmpty } = await import("../local/seed/index");
  await seedIfEmpty();
  const { createUser, findUserByEmail } = await import("@gym/core/user/service");
  const { putRole } = await import("@gym/core/user/roles");
  const admin = await signIn(api.url, "admin@example.com");
  const me = (await admin.get("/api/me")).body.data;
  const organisationId = me.current_organisation.id as string;
  const gymId = (name: string) => me.gyms.find((g: { name: string }) => g.name.endsWith(name)).id as string;
  const ponsonby = gymId("Ponsonby");
  const newmarket = gymId("Newmarket");

  // A gym admin of Newmarket only (the records below are at Ponsonby), and a staff member to aim at.
  const people = [
    { email: "matrix-newmarket-admin@example.com", gym_id: newmarket, role: "admin" as const },
    { email: "matrix-target-staff@example.com", gym_id: ponsonby, role: "personal_trainer" as const },
  ];
  for (const p of people) {
    const user = await createUser({
      email: p.email,
      name: "Matrix Person",
      password: "demo-password",
      email_verified: true,
    });
    await putRole({
      organisation_id: organisationId,
      user_id: user.user_id,
      gym_roles: [{ gym_id: p.gym_id, role: p.role }],
    });
  }
  const [otherGymAdmin, trainer, member, outsider] = await Promise.all([
    signIn(api.url, people[0].email),
    signIn(api.url, "trainer@example.com"),
    signIn(api.url, "member@example.com"),
    signIn(api.url, "owner@example.org"),
  ]);
  clients = { orgAdmin: admin, otherGymAdmin, trainer, member, outsider };

  // This organisation's records at Ponsonby, learnt through its admin.
  const callerMember = (await findUserByEmail("member@example.com"))!.user_id;
  const members = (await admin.get(`/api/members?gym_id=${ponsonby}&per_page=50`)).body.data as {
    id: string;
    latest_subscription: { id: string } | null;
  }[];
  const target = members.find((m) => m.id !== callerMember && m.latest_subscription) ?? members[0];
  const offerings = (await admin.get("/api/offerings")).body.data as {
    id: string;
    all_gyms_access: boolean;
    gyms: { id: string }[];
    prices: { id: string }[];
  }[];
  const offering = offerings.find(
    (o) => !o.all_gyms_access && o.gyms.every((g) => g.id === ponsonby) && o.prices.length,
  )!;
  const payments = (await admin.get(`/api/payments?gym_id=${ponsonby}&status=sent&per_page=5`)).body.data as {
    id: string;
  }[];
  const staff = (await findUserByEmail(people[1].email))!.user_id;
  ids = {
    organisations: organisationId,
    gyms: ponsonby,
    offerings: offering.id,
    prices: offering.prices[0].id,
    members: target.id,
    users: target.id,
    subscriptions: target.latest_subscription?.id ?? missing,
    payments: payments[0]?.id ?? missing,
    staff,
  };
  expect(Object.values(ids)).not.toContain(missing);

  operations = (await documentedOperations(api.url)).filter((op) => !op.path.startsWith(LOCAL_ONLY_PREFIX));
}, 240_000);

/** The segment that names a path parameter: `/members/{id}` → members; `{gymId}` → gyms. */
const segmentOf: Record<string, string> = {
  gym_id: "gyms",
  gymId: "gyms",
  gym: "gyms",
  offering: "offerings",
  organisationId: "organisations",
  userId: "users",
};
const fill = (path: string) =>
  path.replace(/\{([^}]+)\}/g, (_, param: string, offset: number) => {
    const before = path.slice(0, offset).split("/").filter(Boolean);
    const segment = segmentOf[param] ?? (param === "id" ? before[before.length - 1] : "");
    return encodeURIComponent(ids[segment] ?? missing);
  });

const call = (client: HttpClient, op: Operation) =>
  client.request(op.method, fill(op.path), documentedBody(op), op.headers);

/** What the row says this caller gets. */
function expected(row: AudienceName, caller: Caller, op: Operation): { oneOf?: number[]; not?: number[] } {
  const audience = audiences[row];
  const roles: readonly string[] | null = audience.roles;
  if (roles !== null && !roles.includes(kindOf[caller])) return { oneOf: [403] };
  if (caller === "outsider" && op.path.includes("{")) return { oneOf: [404] };
  if (caller === "otherGymAdmin" && audience.target)
    // The target (Ponsonby's record in the path; the example's org-wide offering or foreign state in
    // the body) is not theirs: refused, never done.
    return op.path.includes("{") ? { oneOf: [403, 404] } : { oneOf: [403, 404, 409, 422] };
  return { not: [401, 403] };
}

async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run));
}

describe("the role × route matrix (route-policy.ts)", () => {
  it("answers every route as its row says, for every role", async () => {
    const failures: string[] = [];
    const unlisted = operations.filter((op) => !(`${op.method} ${op.path}` in routePolicy));
    expect(
      unlisted.map((op) => `${op.method} ${op.path}`),
      "routes without a row",
    ).toEqual([]);
    const checked = operations.filter((op) => {
      const level = audiences[routePolicy[`${op.method} ${op.path}`]].level;
      return level === "user" || level === "staff";
    });
    expect(checked.length).toBeGreaterThan(100);
    const check = async (op: Operation, caller: Caller) => {
      const row = routePolicy[`${op.method} ${op.path}`];
      const want = expected(row, caller, op);
      const res = await call(clients[caller], op);
      const ok = want.oneOf ? want.oneOf.includes(res.status) : !want.not!.includes(res.status);
      if (!ok)
        failures.push(
          `${op.method} ${op.path} [${row}] as ${caller}: ${res.status}, expected ${want.oneOf ? want.oneOf.join("/") : `not ${want.not!.join("/")}`} (${JSON.stringify(res.body)?.slice(0, 120)})`,
        );
    };
    // The callers who must change nothing first; the organisation admin (whose calls succeed) last,
    // reads before writes.
    const others: Caller[] = ["outsider", "member", "trainer", "otherGymAdmin"];
    await inBatches(
      checked.flatMap((op) => others.map((caller) => ({ op, caller }))),
      6,
      ({ op, caller }) => check(op, caller),
    );
    const reads = checked.filter((op) => op.method === "GET");
    const writes = checked.filter((op) => op.method !== "GET");
    await inBatches(reads, 4, (op) => check(op, "orgAdmin"));
    for (const op of writes) await check(op, "orgAdmin");
    expect(failures).toEqual([]);
  }, 300_000);
});
