import { advanceBusinessClock, readBusinessClock, setBusinessClock } from "@gym/core/clock";
import { listOutbox } from "@gym/core/email/port";
import { ValidationError } from "@gym/core/errors";
import { runJob } from "@gym/core/jobs/run";
import { type JobName, jobNames } from "@gym/core/jobs/schedule";
import { formatMetric, recentMetrics } from "@gym/core/metrics";
import { z } from "@hono/zod-openapi";
import { createRouter, publicRoute } from "../context";
import { envelope, errorResponses, json } from "../respond";

const mail = z
  .object({
    id: z.string(),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    html: z.string().optional(),
    reply_to: z.string().optional(),
    /** List-Unsubscribe and List-Unsubscribe-Post on optional emails. */
    headers: z.record(z.string(), z.string()).optional(),
    sent_at: z.string(),
  })
  .openapi("OutboxMail");

const clock = z
  .object({
    now: z.string(),
    today: z.string(),
    simulated: z.boolean(),
    offset_ms: z.number(),
  })
  .openapi("BusinessClock");

const clockInput = z
  .object({
    now: z.iso.datetime({ offset: true }).optional(),
    advance_days: z.number().int().min(-3660).max(3660).optional(),
  })
  .openapi("BusinessClockInput");

const jobNameParam = z.object({
  // Every scheduled job, by its schedule name (core/jobs/schedule.ts is the one list).
  job: z.enum(jobNames as [JobName, ...JobName[]]),
});

const jobResult = z
  .object({
    job: z.string(),
    now: z.string(),
    startedAt: z.string(),
    finishedAt: z.string(),
    summary: z.record(z.string(), z.number()),
  })
  .openapi("JobResult");

/** Local-only developer tools. Mounted only when the app runs outside AWS. */
export const devRouter = createRouter()
  .openapi(
    publicRoute({
      method: "get",
      path: "/dev/mail",
      tags: ["Developer"],
      summary:
        "The local mailbox: the latest 100 emails sent while running locally, newest first; with ?to=, every email to that address",
      request: {
        query: z.object({ to: z.string().trim().email("Value is not a valid email address").optional() }),
      },
      responses: { 200: json(envelope(z.array(mail))), 422: errorResponses[422] },
    }),
    async (c) => c.json({ data: await listOutbox(100, c.req.valid("query").to) }, 200),
  )
  .openapi(
    publicRoute({
      method: "get",
      path: "/dev/clock",
      tags: ["Developer"],
      summary: "The business clock billing, jobs and derived states use (local only)",
      responses: { 200: json(envelope(clock)) },
    }),
    async (c) => c.json({ data: await readBusinessClock() }, 200),
  )
  .openapi(
    publicRoute({
      method: "post",
      path: "/dev/clock",
      tags: ["Developer"],
      summary: 'Move the business clock: {"now": ISO} or {"advance_days": N} (local only)',
      request: { body: { content: { "application/json": { schema: clockInput } }, required: true } },
      responses: { 200: json(envelope(clock)), 422: errorResponses[422] },
    }),
    async (c) => {
      const input = c.req.valid("json");
      if (input.now !== undefined) return c.json({ data: await setBusinessClock(new Date(input.now)) }, 200);
      if (input.advance_days !== undefined)
        return c.json({ data: await advanceBusinessClock(input.advance_days) }, 200);
      throw ValidationError.field("now", "Give now or advance_days");
    },
  )
  .openapi(
    publicRoute({
      method: "delete",
      path: "/dev/clock",
      tags: ["Developer"],
      summary: "Put the business clock back to real time (local only)",
      responses: { 200: json(envelope(clock)) },
    }),
    async (c) => c.json({ data: await setBusinessClock(null) }, 200),
  )
  .openapi(
    publicRoute({
      method: "post",
      path: "/dev/jobs/{job}",
      tags: ["Developer"],
      summary: "Run a scheduled job now (at the business clock) and answer its summary (local only)",
      request: { params: jobNameParam },
      responses: { 200: json(envelope(jobResult)), 422: errorResponses[422] },
    }),
    async (c) => {
      const { job } = c.req.valid("param");
      return c.json({ data: await runJob(job) }, 200);
    },
  )
  .openapi(
    publicRoute({
      method: "get",
      path: "/dev/metrics",
      tags: ["Developer"],
      summary:
        "The metrics this process emitted (newest first, one readable line each; in AWS they are CloudWatch embedded-metric log lines) (local only)",
      responses: {
        200: {
          description: "One line per metric document",
          content: { "text/plain": { schema: z.string() } },
        },
      },
    }),
    (c) => c.text(`${[...recentMetrics()].reverse().map(formatMetric).join("\n")}\n`, 200),
  );
