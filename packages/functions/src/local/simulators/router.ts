import { doorAccessRecords } from "@gym/core/access/sync";
import { businessNow } from "@gym/core/clock";
import { config } from "@gym/core/config";
import { simulatedUnlockInput } from "@gym/core/contract/access";
import { ValidationError } from "@gym/core/errors";
import { ProviderError } from "@gym/core/providers/errors";
import { ownerOfProviderId } from "@gym/core/providers/links";
import { stripeProvider } from "@gym/core/providers/stripe/index";
import { signStripePayload } from "@gym/core/providers/stripe/verify";
import { signSimulatedAkahuWebhook, simulatedAkahuCode } from "@gym/core/simulators/akahu";
import { SIMULATED_BANK_ACCOUNTS } from "@gym/core/simulators/akahu-payments";
import { recordSimulatedKisiEvent, SIMULATED_KISI_LOCKS } from "@gym/core/simulators/kisi";
import {
  setSimulatedChaos,
  settleSimulatedNow,
  simulatedChaos,
  simulatedDeliveries,
  simulatedLedger,
} from "@gym/core/simulators/simulation";
import { SIMULATED_STRIPE_WEBHOOK_SECRET, simulatedStripeCode } from "@gym/core/simulators/stripe";
import { SIMULATED_TEST_CARDS } from "@gym/core/simulators/stripe-cards";
import { z } from "@hono/zod-openapi";
import { createRouter, publicRoute } from "../../api/context";
import { receiveAkahu } from "../../webhooks/akahu";
import { receiveKisi, receiveKisiFor } from "../../webhooks/kisi";
import { receiveStripe } from "../../webhooks/stripe";
import { cardPage, consentPage } from "./page";

const consentQuery = z.object({
  redirect_uri: z.string().max(500),
  state: z.string().max(2000),
  client_id: z.string().max(200).optional(),
});

/** Only back to our own sites: the simulated provider is no open redirect. */
function ownSite(uri: string): URL | null {
  try {
    const url = new URL(uri);
    return [config.staffUrl, config.joinUrl].some((base) => new URL(base).origin === url.origin) ? url : null;
  } catch {
    return null;
  }
}

function back(uri: URL, params: Record<string, string>) {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

const badRedirect = { message: "redirect_uri must be the staff or join site.", error: "invalid_request" };
const badReturn = { message: "return_url must be the staff or join site.", error: "invalid_request" };

/**
 * The simulated providers' own pages and a way to send their webhooks, mounted only when running
 * locally (see docs/providers.md). The consent pages end the way the real ones do: a redirect to
 * the callback with `code` and `state`, or with `error`.
 */
export const simulatorRouter = createRouter()
  .openapi(
    publicRoute({
      method: "get",
      path: "/dev/stripe/authorize",
      tags: ["Developer"],
      summary: "Simulated Stripe Connect consent page (local only)",
      request: { query: consentQuery },
      responses: { 200: { description: "HTML page" }, 422: { description: "Bad redirect" } },
    }),
    (c) => {
      const { redirect_uri, state } = c.req.valid("query");
      const target = ownSite(redirect_uri);
      if (!target) return c.json(badRedirect, 422);
      const approve = `/api/dev/stripe/authorize/approve?${new URLSearchParams({ redirect_uri, state })}`;
      return c.html(
        consentPage({
          provider: "Stripe",
          title: "Connect a test Stripe account",
          lines: [
            "The gym will take card payments into this simulated account.",
            "Nothing leaves this computer: this page stands in for Stripe while running locally.",
          ],
          approve: { label: "Connect test account", href: approve },
          deny: {
            label: "Deny",
            href: back(target, {
              error: "access_denied",
              error_description: "The user denied your request",
              state,
            }),
          },
        }),
      );
    },
  )
  .openapi(
    publicRoute({
      method: "get",
      path: "/dev/stripe/authorize/approve",
      tags: ["Developer"],
      summary: "Simulated Stripe consent: approve and return to the callback with a code",
      request: { query: consentQuery },
      responses: { 302: { description: "Back to the callback" }, 422: { description: "Bad redirect" } },
    }),
    (c) => {
      const { redirect_uri, state } = c.req.valid("query");
      const target = ownSite(redirect_uri);
      if (!target) return c.json(badRedirect, 422);
      return c.redirect(back(target, { code: simulatedStripeCode(state), scope: "read_write", state }), 302);
    },
  )
  .openapi(
    publicRoute({
      method: "get",
      path: "/dev/akahu/authorize",
      tags: ["Developer"],
      summary: "Simulated Akahu consent page (local only)",
      request: { query: consentQuery },
      responses: { 200: { description: "HTML page" }, 422: { description: "Bad redirect" } },
    }),
    (c) => {
      const { redirect_uri, state } = c.req.valid("query");
      const target = ownSite(redirect_uri);
      if (!target) return c.json(badRedirect, 422);
      return c.html(
        consentPage({
          provider: "Akahu",
          title: "Share your bank accounts",
          lines: [
            `Simulated Bank will share ${SIMULATED_BANK_ACCOUNTS.length} accounts with the gym:`,
            ...SIMULATED_BANK_ACCOUNTS.map((account) => `${account.name}: ${account.note}.`),
            "This page stands in for Akahu while running locally.",
          ],
          approve: {
            label: "Connect Simulated Bank",
            href: back(target, { code: simulatedAkahuCode(state), state }),
          },
          deny: { label: "Cancel", href: back(target, { error: "access_denied", state }) },
        }),
      );
    },
  )
  .openapi(
    publicRoute({
      method: "get",
      path: "/dev/stripe/setup",
      tags: ["Developer"],
      summary: "Simulated Stripe card form confirming a SetupIntent (local only)",
      request: {
        query: z.object({
          account: z.string().max(100),
          setup_intent: z.string().max(100),
          client_secret: z.string().max(200),
          return_url: z.string().max(500),
        }),
      },
      responses: { 200: { description: "HTML page" }, 422: { description: "Bad return address" } },
    }),
    (c) => {
      const query = c.req.valid("query");
      if (!ownSite(query.return_url)) return c.json(badReturn, 422);
      return c.html(
        cardPage({
          account: query.account,
          setupIntent: query.setup_intent,
          clientSecret: query.client_secret,
          returnUrl: query.return_url,
          cards: Object.entries(SIMULATED_TEST_CARDS).map(([number, card]) => ({ number, note: card.note })),
        }),
      );
    },
  )
  .openapi(
    publicRoute({
      method: "post",
      path: "/dev/stripe/setup/confirm",
      tags: ["Developer"],
      summary: "What the simulated card form posts: confirms the SetupIntent with a test card (local only)",
      request: {
        body: {
          content: {
            "application/json": {
              schema: z.object({
                account: z.string().max(100),
                setup_intent: z.string().max(100),
                client_secret: z.string().max(200),
                return_url: z.string().max(500),
                number: z.string().max(40),
                exp_month: z.number().int().optional(),
                exp_year: z.number().int().optional(),
              }),
            },
          },
        },
      },
      responses: {
        200: { description: "Saved: where to go next" },
        422: { description: "Card refused or bad return address" },
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const target = ownSite(body.return_url);
      if (!target) return c.json(badReturn, 422);
      const confirm = stripeProvider().confirmSimulatedCard;
      if (!confirm)
        return c.json({ message: "Stripe is not simulated in this process.", error: "not_simulated" }, 422);
      try {
        const state = await confirm(body.account, body.setup_intent, {
          number: body.number,
          exp_month: body.exp_month,
          exp_year: body.exp_year,
          client_secret: body.client_secret,
        });
        return c.json(
          {
            data: {
              card: state.card,
              redirect: back(target, {
                setup_intent: body.setup_intent,
                setup_intent_client_secret: body.client_secret,
                redirect_status: "succeeded",
              }),
            },
          },
          200,
        );
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        return c.json({ message: error.message, error: "card_error", detail: error.detail }, 422);
      }
    },
  )
  .openapi(
    publicRoute({
      method: "get",
      path: "/dev/providers/ledger",
      tags: ["Developer"],
      summary:
        "Every charge the simulated Stripe and Akahu took in this process, and their webhooks (local only)",
      responses: { 200: { description: "Ledger and deliveries" } },
    }),
    (c) => c.json({ data: { ledger: simulatedLedger(), deliveries: simulatedDeliveries() } }, 200),
  )
  .openapi(
    publicRoute({
      method: "post",
      path: "/dev/providers/settle",
      tags: ["Developer"],
      summary: "Settle every pending simulated charge now and deliver its webhooks (local only)",
      request: {
        body: {
          content: { "application/json": { schema: z.object({ poll_gated: z.boolean().optional() }) } },
          required: false,
        },
      },
      responses: { 200: { description: "How many settled" } },
    }),
    async (c) => {
      let pollGated = false;
      try {
        pollGated = Boolean(((await c.req.json()) as { poll_gated?: boolean }).poll_gated);
      } catch {
        // no body
      }
      return c.json({ data: await settleSimulatedNow({ pollGated }) }, 200);
    },
  )
  .openapi(
    publicRoute({
      method: "put",
      path: "/dev/providers/chaos",
      tags: ["Developer"],
      summary: "Change the simulated providers' chaos settings (local only)",
      request: {
        body: {
          content: {
            "application/json": {
              schema: z.object({
                duplicateWebhooks: z.number().min(0).max(1).optional(),
                reorderWebhooks: z.boolean().optional(),
                dropWebhooks: z.number().min(0).max(1).optional(),
                timeoutNextCharge: z.boolean().optional(),
                settleDelayMs: z.number().int().min(0).max(600_000).optional(),
                seed: z.number().int().optional(),
              }),
            },
          },
        },
      },
      responses: { 200: { description: "The settings now" } },
    }),
    (c) => {
      setSimulatedChaos(c.req.valid("json"));
      return c.json({ data: simulatedChaos() }, 200);
    },
  )
  .openapi(
    publicRoute({
      method: "post",
      path: "/dev/webhooks/{provider}",
      tags: ["Developer"],
      summary: "Send a signed sample webhook from a simulated provider to this app (local only)",
      request: {
        params: z.object({ provider: z.enum(["stripe", "akahu", "kisi"]) }),
        body: { content: { "application/json": { schema: z.object({}).passthrough() } }, required: false },
      },
      responses: { 200: { description: "What the receiver answered" } },
    }),
    async (c) => {
      const { provider } = c.req.valid("param");
      let extra: Record<string, unknown> = {};
      try {
        extra = (await c.req.json()) as Record<string, unknown>;
      } catch {
        // no body: a sample event
      }
      const answer = await sendSimulatedWebhook(provider, extra);
      return c.json({ data: answer }, 200);
    },
  )
  .openapi(
    publicRoute({
      method: "post",
      path: "/dev/kisi/unlock",
      tags: ["Developer"],
      summary:
        "The simulated Kisi records an unlock by a person at a door (at the business clock's now) and posts its webhook (local only)",
      request: {
        body: { content: { "application/json": { schema: simulatedUnlockInput } }, required: true },
      },
      responses: { 200: { description: "What the Kisi webhook receiver answered" } },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const lock = SIMULATED_KISI_LOCKS.find((l) => l.id === body.door_id);
      if (!lock) throw ValidationError.field("door_id", "The simulated Kisi has no such door");
      const owner = await ownerOfProviderId("kisi_place", lock.place_id);
      if (!owner) throw ValidationError.field("door_id", "This door's place is not linked to a gym");
      const records = await doorAccessRecords(owner.organisation_id, body.user_id);
      const kisiUserId = records.find((r) => r.kisi_user_id)?.kisi_user_id;
      if (!kisiUserId) throw ValidationError.field("user_id", "This person was never given door access");
      // Kisi opens the door only to those we gave access (docs/access-control.md): a person whose
      // access at this place was taken away is refused, an unsuccessful unlock (docs/offers.md
      // "Visit passes": the eleventh entry of a 10-visit pass).
      const granted = records.some((r) => r.status === "granted" && r.place_id === lock.place_id);
      const answer = await sendSimulatedWebhook("kisi", {
        ...(body.event_id ? { id: body.event_id } : {}),
        place_id: lock.place_id,
        object_id: lock.id,
        actor_id: kisiUserId,
        created_at: body.visited_at ?? (await businessNow()).toISOString(),
        success: body.successful ?? granted,
      });
      return c.json({ data: answer }, 200);
    },
  );

/** Builds, signs and delivers a sample event in-process (also used by the seed). */
export async function sendSimulatedWebhook(
  provider: "stripe" | "akahu" | "kisi",
  extra: Record<string, unknown> = {},
) {
  const now = Math.floor(Date.now() / 1000);
  if (provider === "stripe") {
    const body = JSON.stringify({
      id: `evt_sim${now}${Math.floor(Math.random() * 1e6)}`,
      object: "event",
      type: "account.updated",
      created: now,
      livemode: false,
      data: { object: { id: extra.account ?? "acct_unknown", object: "account", charges_enabled: true } },
      ...extra,
    });
    const secret =
      stripeProvider().mode === "simulated"
        ? (config.optional("STRIPE_WEBHOOK_SECRET") ?? SIMULATED_STRIPE_WEBHOOK_SECRET)
        : "";
    return receiveStripe(body, signStripePayload(body, secret));
  }
  if (provider === "akahu") {
    const body = JSON.stringify({
      webhook_type: "TOKEN",
      webhook_code: "DELETE",
      state: null,
      item_id: `user_token_sim${now}`,
      ...extra,
    });
    const { keyId, signature } = signSimulatedAkahuWebhook(body);
    return receiveAkahu(body, keyId, signature);
  }
  // Kisi records the unlock first, then posts it: the simulated account keeps it so the
  // receiver's confirmation finds it. Delivered in-process to the place's organisation (the
  // simulator does not know the hashed URL secret).
  const event: Record<string, unknown> = {
    id: `${now}${Math.floor(Math.random() * 1e6)}`,
    type: "lock.unlock",
    object_type: "Lock",
    action: "unlock",
    ...extra,
  };
  const placeId = event.place_id === undefined ? null : String(event.place_id);
  recordSimulatedKisiEvent({
    id: String(event.id),
    action: String(event.action),
    object_type: "Lock",
    place_id: placeId,
    lock_id: event.object_id === undefined ? null : String(event.object_id),
    actor_id: event.actor_id === undefined ? null : String(event.actor_id),
    success: typeof event.success === "boolean" ? event.success : null,
    ...(typeof event.created_at === "string" ? { created_at: event.created_at } : {}),
  });
  const owner = placeId ? await ownerOfProviderId("kisi_place", placeId) : null;
  const body = JSON.stringify(event);
  return owner
    ? receiveKisiFor(owner.organisation_id, body)
    : receiveKisi(body, "no-secret-for-an-unlinked-place");
}
