import type { WebhookCall, WebhookOutcomeName, WebhookProviderName } from "@gym/core/contract/webhook-call";
import { buildUrl, useApiList } from "@gym/web/api";

export type { WebhookCall };
export type WebhookProvider = WebhookProviderName;
export type WebhookOutcome = WebhookOutcomeName;

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
