import { kisiKeyOf, kisiWebhookSecretHash } from "@gym/core/organisation/settings";
import { kisiProvider } from "@gym/core/providers/kisi/index";
import { ownerOfProviderId } from "@gym/core/providers/links";
import { acceptWebhook, rejectWebhook, type WebhookAnswer } from "@gym/core/webhook-log/receive";

function placeIdOf(event: Record<string, unknown>): string | null {
  const direct = event.place_id ?? (event.place as { id?: unknown } | undefined)?.id;
  const references = event.references as { place_id?: unknown } | undefined;
  const value = direct ?? references?.place_id;
  return value === undefined || value === null ? null : String(value);
}

const isUnlock = (event: Record<string, unknown>, type: string) =>
  event.action === "unlock" || /(^|\.)unlock$/.test(type);

/**
 * Kisi: each organisation's webhook URL ends in its own secret (`/api/webhooks/kisi/{secret}`,
 * made when Kisi is connected, shown once, rotatable; only its hash is stored). A call with an
 * unknown secret is rejected and names no organisation.
 */
export async function receiveKisi(rawBody: string, secret: string): Promise<WebhookAnswer> {
  const owner = /^[\w-]{20,100}$/.test(secret)
    ? await ownerOfProviderId("kisi_webhook", kisiWebhookSecretHash(secret))
    : null;
  if (!owner) return rejectWebhook({ provider: "kisi", reason: "unknown webhook secret", rawBody });
  return receiveKisiFor(owner.organisation_id, rawBody);
}

/**
 * An event for an organisation whose secret matched. The place must be one of that
 * organisation's; an unlock (what the visits work turns into a visit) is trusted only once Kisi's
 * API, asked with the organisation's key, confirms the same event at the same place. An event
 * that fails is rejected before its id is used up, so the real event is not taken for a
 * duplicate later.
 */
export async function receiveKisiFor(organisationId: string, rawBody: string): Promise<WebhookAnswer> {
  let event: Record<string, unknown>;
  try {
    const parsed = JSON.parse(rawBody);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
      throw new SyntaxError("not an object");
    event = parsed;
  } catch {
    return rejectWebhook({ provider: "kisi", organisationId, reason: "body is not a JSON object", rawBody });
  }
  const type =
    typeof event.type === "string"
      ? event.type
      : [event.object_type, event.action].filter((part) => typeof part === "string").join(".") || "unknown";
  const eventId = event.id === undefined || event.id === null ? null : String(event.id);
  const reject = (reason: string) =>
    rejectWebhook({ provider: "kisi", organisationId, eventType: type, eventId, reason, rawBody });

  const placeId = placeIdOf(event);
  const place = placeId ? await ownerOfProviderId("kisi_place", placeId) : null;
  if (place && place.organisation_id !== organisationId)
    return reject("the place belongs to another organisation");

  let payload: Record<string, unknown> = event;
  if (isUnlock(event, type)) {
    if (!eventId) return reject("an unlock without an event id cannot be confirmed");
    const confirmed = await kisiProvider().getEvent(await kisiKeyOf(organisationId), eventId);
    if (confirmed?.action !== "unlock")
      return reject("Kisi has no such unlock event for this organisation's key");
    if (placeId && confirmed.place_id !== placeId) return reject("Kisi reports this unlock at another place");
    // What Kisi says happened, beside what the call claimed.
    payload = { ...event, confirmed_by_kisi: confirmed };
  }
  return acceptWebhook(
    {
      provider: "kisi",
      organisationId,
      gymId: place?.gym_id ?? null,
      eventType: type,
      eventId,
      payload,
    },
    rawBody,
  );
}
