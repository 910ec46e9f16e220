/**
 * `GET /api/me` (spec 000 §3 "Current user"): a member's payment types and default payment type
 * are theirs, read from their saved payment methods (issue 35 item 18).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { type MoneyWorld, moneyWorld } from "../../../../../tests/support/money";
import { adminOf, memberOf } from "../../../../../tests/support/money-api";

const api = useTestApi();
let world: MoneyWorld;
let admin: HttpClient;

beforeAll(async () => {
  world = await moneyWorld({ name: "Me Gyms" });
  admin = await adminOf(world, api.url, "me-admin@example.nz");
});

describe("GET /api/me", () => {
  it("gives a member with a card their payment types and that card as the default", async () => {
    const m = await memberOf(world, api.url, { prefix: "me", card: "4242424242424242" });
    const me = await m.client.get("/api/me");
    expect(me.status).toBe(200);
    const types = me.body.data.payment_types as { id: string; type: string; is_default: boolean }[];
    expect(types).toHaveLength(1);
    expect(types[0]).toMatchObject({ type: "stripe_card", is_default: true, last_four: "4242" });
    expect(me.body.data.default_payment_type).toMatchObject({ id: types[0].id, type: "stripe_card" });
  });

  it("gives a member without one none, and staff none", async () => {
    const m = await memberOf(world, api.url, { prefix: "me-none" });
    const me = await m.client.get("/api/me");
    expect(me.body.data).toMatchObject({ payment_types: [], default_payment_type: null });
    const staff = await admin.get("/api/me");
    expect(staff.body.data).toMatchObject({ payment_types: [], default_payment_type: null });
  });
});
