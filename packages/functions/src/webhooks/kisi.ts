import { ownerOfProviderId } from "@gym/core/providers/links";
import { acceptWebhook, rejectWebhook, type WebhookAnswer } from "@gym/core/webhook-log/receive";

function placeIdOf(event: Record<string, unknown>): string | null {
  const direct = event.place_id ?? (event.place as { id?: unknown } | undefined)?.id;
  const references = event.references as { place_id?: unknown } | undefined;
  const value = direct ?? references?.place_id;
  return value === undefined || value === null ? null : String(value);
}

/**
 * Kisi: events (e.g. `lock.unlock`) are recorded and answered; the place names the organisation
 * and gym. Turning unlocks on visit-tracking doors into visits is the visits work.
 */
export async function receiveKisi(rawBody: string): Promise<WebhookAnswer> {
  let event: Record<string, unknown>;
  try {
    const parsed = JSON.parse(rawBody);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
      throw new SyntaxError("not an object");
    event = parsed;
  } catch {
    return rejectWebhook({ provider: "kisi", reason: "body is not a JSON object", rawBody });
  }
  const placeId = placeIdOf(event);
  const owner = placeId ? await ownerOfProviderId("kisi_place", placeId) : null;
  const type =
    typeof event.type === "string"
      ? event.type
      : [event.object_type, event.action].filter((part) => typeof part === "string").join(".") || "unknown";
  return acceptWebhook(
    {
      provider: "kisi",
      organisationId: owner?.organisation_id ?? null,
      gymId: owner?.gym_id ?? null,
      eventType: type,
      eventId: event.id === undefined || event.id === null ? null : String(event.id),
      payload: event,
    },
    rawBody,
  );
}
