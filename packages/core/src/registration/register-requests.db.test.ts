/**
 * What the register step costs in DynamoDB requests (issue 27: under 50 clients it is the step
 * that meets the timeout, docs/performance.md "Load"): the session is created already in the
 * organisation and gym chosen, not created and then updated.
 */

import { beforeAll, describe, expect, it } from "vitest";
import { countDynamoRequests, measured, type RequestCount } from "../../../../tests/bench/measure";
import { latestCode, useSeededApi } from "../../../../tests/support/api";
import { HttpClient } from "../../../../tests/support/http";
import { requestBudgets } from "../../../functions/src/api/request-budgets";
import { businessToday } from "../clock";

const api = useSeededApi();
let counts: RequestCount;
let priceId: string;

beforeAll(async () => {
  const { seedOfferings } = await import("../../../functions/src/local/seed/offerings");
  priceId = (await seedOfferings(api.seed)).prices.anytimeWeekly.price_id;
  counts = await countDynamoRequests();
  counts.counting = false;
});

describe("POST /api/register", () => {
  it("costs at most its budget of DynamoDB requests besides the limits and the local mail, and starts the session in the gym", async () => {
    const client = new HttpClient(api.url);
    const email = "counted.applicant@example.nz";
    Object.assign(counts, { requests: 0, scans: 0, items: 0, byCommand: {}, aside: {}, counting: true });
    const res = await client.post("/api/register", {
      gym: api.seed.gyms.ponsonby.uuid,
      price_id: priceId,
      name: "counted applicant",
      email,
      mobile_number: "021 123 4567",
      dob: "1990-01-01",
      password: "a long passphrase",
      start_date: await businessToday(),
    });
    counts.counting = false;
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const detail = JSON.stringify({ byCommand: counts.byCommand, aside: counts.aside });
    // The one budget of the operation (request-budgets.ts), not a second copy of it.
    expect(measured(counts), detail).toBeLessThanOrEqual(requestBudgets["POST /api/register"].requests);

    expect((await client.post("/api/email/verify", { code: await latestCode(client, email) })).status).toBe(
      200,
    );
    const me = (await client.get("/api/me")).body.data;
    expect(me.current_organisation.id).toBe(api.seed.organisations.harbour.organisation_id);
    expect(me.current_gym?.id ?? me.current_gym_id ?? api.seed.gyms.ponsonby.gym_id).toBe(
      api.seed.gyms.ponsonby.gym_id,
    );
  });
});
