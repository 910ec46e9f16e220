import { listOutbox } from "@gym/core/email/port";
import { z } from "@hono/zod-openapi";
import { createRouter, publicRoute } from "../context";
import { envelope, json } from "../respond";

const mail = z
  .object({
    id: z.string(),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    html: z.string().optional(),
    sent_at: z.string(),
  })
  .openapi("OutboxMail");

/** Local-only developer tools. Mounted only when the app runs outside AWS. */
export const devRouter = createRouter().openapi(
  publicRoute({
    method: "get",
    path: "/dev/mail",
    tags: ["Developer"],
    summary: "The local mailbox: every email sent while running locally, newest first",
    responses: { 200: json(envelope(z.array(mail))) },
  }),
  async (c) => c.json({ data: await listOutbox() }, 200),
);
