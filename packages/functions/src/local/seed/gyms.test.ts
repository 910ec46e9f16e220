import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import { seedGyms } from "./gyms";

process.env.UPLOADS_DIR = mkdtempSync(join(tmpdir(), "gym-seed-"));
const api = useSeededApi();

beforeAll(async () => {
  await seedGyms(api.seed);
});

describe("demo gyms", () => {
  it("has Harbour Fitness Ponsonby fully configured and Newmarket half-configured", async () => {
    const admin = await signIn(api.url, "admin@example.com");
    const ponsonby = (await admin.get(`/api/gyms/${api.seed.gyms.ponsonby.gym_id}`)).body.data;
    expect(ponsonby).toMatchObject({
      has_payment_account: true,
      tracks_visits: true,
      destination_account: {
        name: "Harbour Fitness Ponsonby Ltd",
        bank_account_number: "••-••••-•••1323-50",
      },
      place: { name: "Ponsonby Road building" },
      branch_secret: { set: true },
      akahu_app_secret: { set: true },
    });
    expect(
      ponsonby.doors.filter((d: { integration: { tracks_visits: boolean } }) => d.integration.tracks_visits),
    ).toHaveLength(1);
    expect((await fetch(api.url + ponsonby.logo)).headers.get("content-type")).toBe("image/png");

    const newmarket = (await admin.get(`/api/gyms/${api.seed.gyms.newmarket.gym_id}`)).body.data;
    expect(newmarket).toMatchObject({
      has_payment_account: false,
      place: null,
      logo: null,
      destination_account: { name: "Harbour Fitness Newmarket Ltd" },
    });

    const calls = (await admin.get("/api/webhook-calls")).body.data;
    expect(calls.map((c: { provider: string }) => c.provider).sort()).toEqual(["akahu", "kisi", "stripe"]);
    expect(calls.every((c: { outcome: string }) => c.outcome === "accepted")).toBe(true);
  });
});
