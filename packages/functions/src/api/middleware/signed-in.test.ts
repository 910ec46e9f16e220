/**
 * A staff call reads its session, the user's role and the organisation's gyms in one round
 * (core auth/signed-in.ts, issue 36), and each is still the table's word at that call: the cookie
 * names its user and organisation only to choose what to read beside the session.
 * docs/access-control.md "Sessions".
 */
import { describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import { HttpClient } from "../../../../../tests/support/http";

const api = useSeededApi();

const token = (client: HttpClient) => /gym_session=([^;]+)/.exec(client.cookieHeader())?.[1] ?? "";
const withToken = (value: string) => ({ Cookie: `gym_session=${value}` });

describe("the session, role and gyms read together", () => {
  it("names the user and organisation in the cookie, and the session read decides", async () => {
    const admin = await signIn(api.url, "admin@example.com");
    const me = (await admin.get("/api/me")).body.data;
    const [userId, organisationId, secret] = token(admin).split(".");
    expect(userId).toBe(me.id);
    expect(organisationId).toBe(me.current_organisation.id);
    expect(secret).toMatch(/^[\w-]{43}$/);

    const anyone = new HttpClient(api.url);
    // Another user's or organisation's name in the same cookie finds no session.
    const other = api.seed.organisations.southern.organisation_id;
    for (const forged of [`${userId}.${other}.${secret}`, `x${userId}.${organisationId}.${secret}`]) {
      const answer = await anyone.request("GET", "/api/members", undefined, withToken(forged));
      expect(answer.status).toBe(401);
    }
    // An ended session is ended, whatever the cookie names.
    const ended = token(admin);
    expect((await admin.post("/api/logout")).status).toBe(200);
    expect((await anyone.request("GET", "/api/members", undefined, withToken(ended))).status).toBe(401);
  });

  it("acts in the organisation the session is in after a switch, not the one the cookie names", async () => {
    const admin = await signIn(api.url, "admin@example.com");
    const me = (await admin.get("/api/me")).body.data;
    const kiwi = me.organisations.find((o: { name: string }) => o.name === "Kiwi CrossFit");
    expect((await admin.post(`/api/organisations/${kiwi.id}/switch`)).status).toBe(200);
    expect(token(admin).split(".")[1]).toBe(me.current_organisation.id);
    const after = (await admin.get("/api/me")).body.data;
    expect(after.current_organisation.name).toBe("Kiwi CrossFit");
    expect(after.gyms).toHaveLength(1);
  });

  it("reads the role as it is now: a staff role removed refuses the next staff call", async () => {
    const manager = await signIn(api.url, "manager@example.com");
    expect((await manager.get("/api/members")).status).toBe(200);
    const me = (await manager.get("/api/me")).body.data;
    const { putRole } = await import("@gym/core/user/roles");
    await putRole({ organisation_id: me.current_organisation.id, user_id: me.id, gym_roles: [] });
    expect((await manager.get("/api/members")).status).toBe(403);
  });
});
