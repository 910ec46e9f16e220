import { checkDatabase } from "@gym/core/db/health";
import { z } from "@hono/zod-openapi";
import { createRouter, publicRoute } from "../context";
import { envelope, json } from "../respond";

const health = z
  .object({
    status: z.enum(["ok", "degraded"]),
    database: z.object({ reachable: z.boolean(), latency_ms: z.number() }),
    stage: z.string(),
    time: z.string(),
  })
  .openapi("Health");

export const healthRouter = createRouter().openapi(
  publicRoute({
    method: "get",
    path: "/health",
    tags: ["System"],
    summary: "Is the API up and can it reach the database?",
    responses: { 200: json(envelope(health)), 503: json(envelope(health), "Database unreachable") },
  }),
  async (c) => {
    const database = await checkDatabase();
    const body = {
      data: {
        status: database.reachable ? ("ok" as const) : ("degraded" as const),
        database,
        stage: process.env.STAGE ?? "local",
        time: new Date().toISOString(),
      },
    };
    return database.reachable ? c.json(body, 200) : c.json(body, 503);
  },
);
