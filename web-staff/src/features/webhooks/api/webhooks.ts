import { buildUrl, useApiList } from "@gym/web/api";

export type WebhookProvider = "stripe" | "akahu" | "kisi";
export type WebhookOutcome = "accepted" | "rejected" | "duplicate" | "error";

export interface WebhookCall {
  id: string;
  provider: WebhookProvider;
  event_type: string;
  event_id: string | null;
  gym_id: string | null;
  received_at: string;
  outcome: WebhookOutcome;
  status_code: number;
  detail: string | null;
  body: unknown;
}

export interface WebhookFilters {
  provider?: WebhookProvider | null;
  outcome?: WebhookOutcome | null;
  cursor?: string | null;
  per_page?: number;
}

/** A page of the log: all calls, or the organisation's bank-feed webhooks. */
export function useWebhookCalls(
  source: { kind: "all" } | { kind: "akahu"; organisationId: string | undefined },
  filters: WebhookFilters,
) {
  const base =
    source.kind === "all"
      ? "/api/webhook-calls"
      : source.organisationId
        ? `/api/organisations/${source.organisationId}/akahu-webhooks`
        : null;
  const query = {
    provider: source.kind === "all" ? filters.provider : undefined,
    outcome: filters.outcome,
    cursor: filters.cursor,
    per_page: filters.per_page ?? 25,
  };
  return useApiList<WebhookCall>(base ? buildUrl("", base, query) : null);
}
