import { createHash } from "node:crypto";
import { getOrganisationOrNull } from "@gym/core/organisation/service";
import { akahuProvider } from "@gym/core/providers/akahu/index";
import { WebhookSignatureError } from "@gym/core/providers/stripe/port";
import { acceptWebhook, rejectWebhook, type WebhookAnswer } from "@gym/core/webhook-log/receive";

/**
 * Akahu: RSA-SHA256 signature (`X-Akahu-Signature`) with the key `X-Akahu-Signing-Key` names,
 * fetched from Akahu and cached. The `state` we subscribe with is the organisation id. Akahu
 * events carry no id, so a redelivery is recognised by the hash of its body.
 */
export async function receiveAkahu(
  rawBody: string,
  keyId: string | undefined,
  signature: string | undefined,
): Promise<WebhookAnswer> {
  let payload: Awaited<ReturnType<ReturnType<typeof akahuProvider>["verifyWebhook"]>>;
  try {
    payload = await akahuProvider().verifyWebhook(keyId, signature, rawBody);
  } catch (error) {
    if (error instanceof WebhookSignatureError || error instanceof SyntaxError) {
      return rejectWebhook({ provider: "akahu", reason: `signature: ${error.message}`, rawBody });
    }
    throw error;
  }
  const state =
    typeof payload.state === "string" && /^[0-9A-Z]{26}$/.test(payload.state) ? payload.state : null;
  const organisation = state ? await getOrganisationOrNull(state) : null;
  return acceptWebhook(
    {
      provider: "akahu",
      organisationId: organisation?.organisation_id ?? null,
      gymId: null,
      eventType: [payload.webhook_type, payload.webhook_code].filter(Boolean).join(".") || "unknown",
      eventId: `sha256:${createHash("sha256").update(rawBody).digest("hex").slice(0, 32)}`,
      payload,
    },
    rawBody,
  );
}
