/** The inbound provider calls log (`GET /api/webhook-calls`, `…/akahu-webhooks`; webhook-log/). */
import { z } from "zod";

export const WEBHOOK_PROVIDERS = ["stripe", "akahu", "kisi"] as const;
export const WEBHOOK_OUTCOMES = ["accepted", "refused", "rejected", "duplicate", "error"] as const;
export type WebhookProviderName = (typeof WEBHOOK_PROVIDERS)[number];
export type WebhookOutcomeName = (typeof WEBHOOK_OUTCOMES)[number];

/** Any JSON value: a logged body is the provider's JSON (redacted), or its text when it was not JSON. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/**
 * Its schema is one level deep (object, array or a scalar): the OpenAPI generator cannot walk a
 * recursive schema, and the type above says the rest.
 */
export const jsonValue = z
  .union([
    z.record(z.string(), z.unknown()),
    z.array(z.unknown()),
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
  ])
  .meta({ id: "JsonValue", description: "Any JSON value" }) as unknown as z.ZodType<JsonValue>;

export const webhookCallSchema = z
  .object({
    id: z.string(),
    provider: z.enum(WEBHOOK_PROVIDERS),
    event_type: z.string(),
    event_id: z.string().nullable(),
    gym_id: z.string().nullable(),
    received_at: z.string(),
    outcome: z.enum(WEBHOOK_OUTCOMES),
    status_code: z.number().int(),
    detail: z.string().nullable(),
    body: jsonValue.meta({ description: "The call's JSON body as received (secrets redacted), or its text" }),
  })
  .meta({ id: "WebhookCall" });
export type WebhookCall = z.output<typeof webhookCallSchema>;

const paging = {
  cursor: z.string().max(2000).optional(),
  per_page: z.coerce.number().int().min(1).max(100).optional(),
  outcome: z.enum(WEBHOOK_OUTCOMES).optional(),
};
export const akahuWebhooksQuery = z.object(paging);
export const webhookCallsQuery = z.object({ ...paging, provider: z.enum(WEBHOOK_PROVIDERS).optional() });
