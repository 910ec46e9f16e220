import { createSign } from "node:crypto";
import { clearRecentMetrics, recentMetrics } from "@gym/core/metrics";
import { listWebhookCalls } from "@gym/core/webhook-log/service";
import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import { HttpClient } from "../../../../../tests/support/http";

const api = useSeededApi();
let admin: HttpClient;
let trainer: HttpClient;
let otherAdmin: HttpClient;
let harbour: string;
let account: string;

/** A provider: no cookies, no X-Requested-With. */
const provider = () => new HttpClient(api.url, { xhr: false });

async function stripeEvent(event: Record<string, unknown>, secret?: string) {
  const { SIMULATED_STRIPE_WEBHOOK_SECRET } = await import("@gym/core/simulators/stripe");
  const { signStripePayload } = await import("@gym/core/providers/stripe/verify");
  const body = JSON.stringify({
    object: "event",
    livemode: false,
    created: 1_700_000_000,
    data: { object: {} },
    ...event,
  });
  return provider().request("POST", "/api/webhooks/stripe", body, {
    "Stripe-Signature": signStripePayload(body, secret ?? SIMULATED_STRIPE_WEBHOOK_SECRET),
  });
}

beforeAll(async () => {
  [admin, trainer, otherAdmin] = await Promise.all([
    signIn(api.url, "admin@example.com"),
    signIn(api.url, "trainer@example.com"),
    signIn(api.url, "owner@example.org"),
  ]);
  harbour = api.seed.organisations.harbour.organisation_id;
  // Connect Ponsonby's Stripe account so its events are filed under Harbour Fitness.
  const { linkProviderId } = await import("@gym/core/providers/links");
  account = "acct_simHarbourTest";
  await linkProviderId("stripe_account", account, {
    organisation_id: harbour,
    gym_id: api.seed.gyms.ponsonby.gym_id,
  });
});

describe("webhook receivers", () => {
  it("accepts a signed Stripe event, files it under the connected account's organisation, redacted", async () => {
    const res = await stripeEvent({
      id: "evt_one",
      type: "payment_intent.succeeded",
      account,
      data: {
        object: {
          id: "pi_1",
          client_secret: "pi_1_secret_abc",
          receipt_email: "m@example.com",
          amount: 6000,
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: true, outcome: "accepted" });
    const calls = (await admin.get("/api/webhook-calls?provider=stripe")).body.data;
    const call = calls.find((c: { event_id: string }) => c.event_id === "evt_one");
    expect(call).toMatchObject({
      provider: "stripe",
      event_type: "payment_intent.succeeded",
      outcome: "accepted",
      status_code: 200,
      gym_id: api.seed.gyms.ponsonby.gym_id,
    });
    expect(call.body.data.object).toMatchObject({
      id: "pi_1",
      amount: 6000,
      client_secret: "[redacted]",
      receipt_email: "[redacted]",
    });
  });

  it("records a redelivered event as a duplicate", async () => {
    await stripeEvent({ id: "evt_twice", type: "account.updated", account });
    const again = await stripeEvent({ id: "evt_twice", type: "account.updated", account });
    expect(again.status).toBe(200);
    expect(again.body.outcome).toBe("duplicate");
    const calls = (await admin.get("/api/webhook-calls")).body.data.filter(
      (c: { event_id: string }) => c.event_id === "evt_twice",
    );
    expect(calls.map((c: { outcome: string }) => c.outcome)).toEqual(["duplicate", "accepted"]);
  });

  it("rejects a bad Stripe signature with 400 and records it in the global log, not any organisation's", async () => {
    const forged = await stripeEvent(
      { id: "evt_forged", type: "payment_intent.succeeded", account },
      "whsec_wrong",
    );
    expect(forged.status).toBe(400);
    expect(forged.body.outcome).toBe("rejected");
    const unsigned = await provider().request("POST", "/api/webhooks/stripe", "{}");
    expect(unsigned.status).toBe(400);
    const global = await listWebhookCalls("global", { provider: "stripe", outcome: "rejected" });
    expect(global.data.some((c) => c.event_id === "evt_forged" && /signature/.test(c.detail ?? ""))).toBe(
      true,
    );
    const mine = (await admin.get("/api/webhook-calls")).body.data;
    expect(mine.some((c: { event_id: string }) => c.event_id === "evt_forged")).toBe(false);
  });

  it("verifies Akahu's RSA signature and files events by their state (the organisation)", async () => {
    const { signSimulatedAkahuWebhook } = await import("@gym/core/simulators/akahu");
    const body = JSON.stringify({
      webhook_type: "PAYMENT",
      webhook_code: "UPDATE",
      state: harbour,
      item_id: "payment_1",
      status: "SENT",
    });
    const { keyId, signature } = signSimulatedAkahuWebhook(body);
    const ok = await provider().request("POST", "/api/webhooks/akahu", body, {
      "X-Akahu-Signature": signature,
      "X-Akahu-Signing-Key": keyId,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.outcome).toBe("accepted");

    const sign = createSign("sha256");
    sign.update(body);
    const { generateKeyPairSync } = await import("node:crypto");
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const forged = await provider().request("POST", "/api/webhooks/akahu", body, {
      "X-Akahu-Signature": sign.sign(other.privateKey, "base64"),
      "X-Akahu-Signing-Key": keyId,
    });
    expect(forged.status).toBe(400);

    const listed = await admin.get(`/api/organisations/${harbour}/akahu-webhooks`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({
      provider: "akahu",
      event_type: "PAYMENT.UPDATE",
      outcome: "accepted",
    });
  });

  it("takes Kisi events only at the organisation's secret URL, and unlocks only once Kisi confirms them", async () => {
    const { linkProviderId } = await import("@gym/core/providers/links");
    const { recordSimulatedKisiEvent } = await import("@gym/core/simulators/kisi");
    await linkProviderId("kisi_place", "41001", {
      organisation_id: harbour,
      gym_id: api.seed.gyms.ponsonby.gym_id,
    });
    await linkProviderId("kisi_place", "41002", {
      organisation_id: api.seed.organisations.southern.organisation_id,
    });
    // Connecting Kisi makes the secret and shows its URL once.
    const connected = await admin.post(`/api/organisations/${harbour}/access-control/integration`, {
      integration_type: "kisi",
      api_key: "kisi_harbour_key_1234",
    });
    expect(connected.status).toBe(200);
    const url = new URL(connected.body.data.webhook_url);
    expect(url.pathname).toMatch(/^\/api\/webhooks\/kisi\/[\w-]{40,}$/);
    const secretPath = url.pathname;
    const shown = await admin.get(`/api/organisations/${harbour}/access-control/integration`);
    expect(shown.body.data.webhook_url).toBeUndefined();
    expect(shown.body.data.webhook_secret_set_at).toEqual(expect.any(String));
    expect(JSON.stringify(shown.body.data)).not.toContain(secretPath.split("/").at(-1));

    const unlock = JSON.stringify({ id: 501, type: "lock.unlock", action: "unlock", place_id: 41001 });
    // The review's forgery: the old open URL is gone, a guessed secret is refused and names no one.
    expect((await provider().request("POST", "/api/webhooks/kisi", unlock)).status).toBe(404);
    const guessed = await provider().request("POST", `/api/webhooks/kisi/${"g".repeat(43)}`, unlock);
    expect(guessed.status).toBe(400);
    expect(guessed.body.outcome).toBe("rejected");
    // The right URL, but Kisi never recorded event 501: rejected, and its id is not used up.
    const unconfirmed = await provider().request("POST", secretPath, unlock);
    expect(unconfirmed.status).toBe(400);
    // Another organisation's place through this organisation's URL is refused.
    recordSimulatedKisiEvent({ id: "777", action: "unlock", object_type: "Lock", place_id: "41002" });
    const otherPlace = await provider().request(
      "POST",
      secretPath,
      JSON.stringify({ id: 777, action: "unlock", place_id: 41002 }),
    );
    expect(otherPlace.status).toBe(400);
    // Kisi confirms the real unlock: accepted under the gym whose place it names.
    recordSimulatedKisiEvent({ id: "501", action: "unlock", object_type: "Lock", place_id: "41001" });
    const ok = await provider().request("POST", secretPath, unlock);
    expect(ok.status).toBe(200);
    expect(ok.body.outcome).toBe("accepted");
    // Kisi reports it at another place than the call claims: rejected.
    recordSimulatedKisiEvent({ id: "502", action: "unlock", object_type: "Lock", place_id: "41002" });
    const moved = await provider().request(
      "POST",
      secretPath,
      JSON.stringify({ id: 502, action: "unlock", place_id: 41001 }),
    );
    expect(moved.status).toBe(400);
    const notJson = await provider().request("POST", secretPath, "hello");
    expect(notJson.status).toBe(400);

    const kisi = (await admin.get("/api/webhook-calls?provider=kisi")).body.data;
    expect(kisi.filter((c: { outcome: string }) => c.outcome === "accepted")).toEqual([
      expect.objectContaining({
        event_type: "lock.unlock",
        event_id: "501",
        gym_id: api.seed.gyms.ponsonby.gym_id,
      }),
    ]);
    expect(kisi.filter((c: { outcome: string }) => c.outcome === "rejected")).toHaveLength(4);

    // Rotating the secret: a new URL, shown once; the old one stops working at once.
    const rotated = await admin.post(`/api/organisations/${harbour}/access-control/webhook-secret`);
    expect(rotated.status).toBe(200);
    const newPath = new URL(rotated.body.data.webhook_url).pathname;
    expect(newPath).not.toBe(secretPath);
    recordSimulatedKisiEvent({ id: "503", action: "unlock", object_type: "Lock", place_id: "41001" });
    const next = JSON.stringify({ id: 503, action: "unlock", place_id: 41001 });
    expect((await provider().request("POST", secretPath, next)).status).toBe(400);
    expect((await provider().request("POST", newPath, next)).status).toBe(200);
    expect((await trainer.post(`/api/organisations/${harbour}/access-control/webhook-secret`)).status).toBe(
      403,
    );
    expect(
      (await otherAdmin.post(`/api/organisations/${harbour}/access-control/webhook-secret`)).status,
    ).toBe(404);
  });

  it("limits webhook calls per source address", async () => {
    process.env.WEBHOOK_CALLS_PER_MINUTE = "5";
    clearRecentMetrics();
    try {
      const statuses = [];
      for (let i = 0; i < 8; i++) {
        const res = await provider().request("POST", "/api/webhooks/stripe", "{}", {
          "X-Forwarded-For": "198.51.100.99",
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429, 429]);
      // Each refused call is counted for the operators' alarm (a provider's settlements then wait).
      const limited = recentMetrics().filter(
        (e) => e.emf.WebhookReceipts === 1 && e.emf.Outcome === "rate_limited" && e.emf.Provider === "stripe",
      );
      expect(limited).toHaveLength(3);
      const other = await provider().request("POST", "/api/webhooks/stripe", "{}", {
        "X-Forwarded-For": "198.51.100.100",
      });
      expect(other.status).toBe(400);
    } finally {
      delete process.env.WEBHOOK_CALLS_PER_MINUTE;
    }
  });
});

describe("webhook log pages", () => {
  it("pages newest first with a cursor and filters by provider and outcome", async () => {
    for (let i = 0; i < 3; i++) await stripeEvent({ id: `evt_page_${i}`, type: "account.updated", account });
    const first = await admin.get("/api/webhook-calls?per_page=2");
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.meta).toEqual({ next_cursor: expect.any(String), per_page: 2 });
    expect(first.body.data[0].event_id).toBe("evt_page_2");
    expect(first.body.data[1].event_id).toBe("evt_page_1");
    const second = await admin.get(
      `/api/webhook-calls?per_page=2&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`,
    );
    expect(second.body.data[0].event_id).toBe("evt_page_0");

    const duplicates = (await admin.get("/api/webhook-calls?outcome=duplicate&per_page=100")).body.data;
    expect(duplicates.length).toBeGreaterThan(0);
    expect(duplicates.every((c: { outcome: string }) => c.outcome === "duplicate")).toBe(true);
    expect((await admin.get("/api/webhook-calls?provider=paypal")).status).toBe(422);
    expect((await admin.get("/api/webhook-calls?cursor=not-a-cursor")).status).toBe(422);
  });

  it("answers 422 to a well-formed cursor that is not this query's own", async () => {
    // {"x":1}: valid base64url JSON, but not a page of this listing (the review got a 500).
    for (const cursor of [
      "eyJ4IjoxfQ",
      Buffer.from(JSON.stringify({ pk: "$gym#partition_x", sk: "$webhook_call_1#call_id_x" })).toString(
        "base64url",
      ),
      Buffer.from(JSON.stringify({ after: "not-an-id" })).toString("base64url"),
    ]) {
      const res = await admin.get(`/api/webhook-calls?cursor=${cursor}`);
      expect(res.status, cursor).toBe(422);
      expect(res.body.errors.cursor).toEqual(["The cursor is not valid"]);
    }
  });

  it("fills a filtered page: rare outcomes among many calls still come per_page at a time", async () => {
    // Three duplicates, each buried under four accepted calls.
    for (let i = 0; i < 3; i++) {
      await stripeEvent({ id: `evt_sparse_${i}`, type: "account.updated", account });
      await stripeEvent({ id: `evt_sparse_${i}`, type: "account.updated", account });
      for (let j = 0; j < 4; j++)
        await stripeEvent({ id: `evt_filler_${i}_${j}`, type: "account.updated", account });
    }
    const page = await admin.get("/api/webhook-calls?outcome=duplicate&per_page=3");
    expect(page.status).toBe(200);
    expect(page.body.data.map((c: { event_id: string }) => c.event_id)).toEqual([
      "evt_sparse_2",
      "evt_sparse_1",
      "evt_sparse_0",
    ]);
    const rest = await admin.get(
      `/api/webhook-calls?outcome=duplicate&per_page=100&cursor=${page.body.meta.next_cursor}`,
    );
    expect(rest.status).toBe(200);
    expect(rest.body.data.every((c: { outcome: string }) => c.outcome === "duplicate")).toBe(true);
    expect(rest.body.data.map((c: { event_id: string }) => c.event_id)).not.toContain("evt_sparse_0");
    expect(rest.body.meta.next_cursor).toBeNull();
  });

  it("is for organisation admins of that organisation", async () => {
    expect((await trainer.get("/api/webhook-calls")).status).toBe(403);
    expect((await trainer.get(`/api/organisations/${harbour}/akahu-webhooks`)).status).toBe(403);
    expect((await otherAdmin.get(`/api/organisations/${harbour}/akahu-webhooks`)).status).toBe(404);
    expect((await otherAdmin.get("/api/webhook-calls")).body.data).toEqual([]);
  });
});
