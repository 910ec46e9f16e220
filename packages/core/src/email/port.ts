import { config } from "../config";
import { db } from "../db/service";
import { newId } from "../ids";
import { log } from "../log";
import { type AwsCallOptions, awsClient } from "../providers/aws";
import type { EmailContent } from "./layout";
import type { Brand, EmailKind } from "./message";

export interface Email {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Replies go here (e.g. the gym's price_change_notification_reply_to). */
  reply_to?: string;
  /** Whether preferences may stop it (`message.ts`); required when absent. */
  kind?: EmailKind;
  /** What the HTML part is rendered from (by the one layout, in the send path). */
  content?: EmailContent;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
  headers?: Record<string, string>;
}

/** What an adapter is given: the HTML rendered, the content gone. */
type Rendered = Omit<Email, "content">;

/** The email port. Two adapters: SES in AWS, the local outbox everywhere else. */
export interface EmailSender {
  send(email: Email): Promise<void>;
}

interface Adapter {
  send(email: Rendered): Promise<void>;
}

const OUTBOX_DAYS = 30;

export const outboxSender: Adapter = {
  async send(email) {
    const sentAt = new Date();
    await db()
      .entities.mail.create({
        mail_id: newId(),
        to: email.to,
        subject: email.subject,
        text: email.text,
        ...(email.html ? { html: email.html } : {}),
        ...(email.reply_to ? { reply_to: email.reply_to } : {}),
        ...(email.headers ? { headers: email.headers } : {}),
        sent_at: sentAt.toISOString(),
        expires_at: Math.floor(sentAt.getTime() / 1000) + OUTBOX_DAYS * 86_400,
      })
      .go();
    log.info("email kept in the local outbox", { to: email.to, subject: email.subject });
  },
};

/**
 * SES v2 `SendEmail` as one signed HTTPS call (aws4fetch signs with the function's role
 * credentials from the environment). The SDK client would add ~500 KB to the Lambda bundle for
 * this single call.
 */
export function sesSender(options: AwsCallOptions = {}): Adapter {
  const { region, client: aws } = awsClient("ses", options);
  const endpoint = options.endpoint ?? `https://email.${region}.amazonaws.com`;
  return {
    async send(email) {
      const response = await aws.fetch(`${endpoint}/v2/email/outbound-emails`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          FromEmailAddress: config.emailFrom,
          Destination: { ToAddresses: [email.to] },
          ...(email.reply_to ? { ReplyToAddresses: [email.reply_to] } : {}),
          Content: {
            Simple: {
              Subject: { Data: email.subject, Charset: "UTF-8" },
              Body: {
                Text: { Data: email.text, Charset: "UTF-8" },
                ...(email.html ? { Html: { Data: email.html, Charset: "UTF-8" } } : {}),
              },
              ...(email.headers
                ? { Headers: Object.entries(email.headers).map(([Name, Value]) => ({ Name, Value })) }
                : {}),
            },
          },
        }),
      });
      if (!response.ok) {
        const detail = await response.text();
        log.error("SES refused an email", {
          status: response.status,
          detail: detail.slice(0, 500),
          subject: email.subject,
        });
        throw new Error(`SES SendEmail failed with ${response.status}`);
      }
    },
  };
}

/**
 * The gym's logo and reply-to, when the email names the gym by its ids, then the HTML part from
 * the content by the one layout. Both modules are imported here, on first send, so React and the
 * renderer stay out of every cold start that sends nothing.
 */
type BrandLookup = (ref: { organisation_id: string; gym_id: string }) => Promise<Partial<Brand>>;
let brandLookup: BrandLookup | undefined;
/** How the layout finds a gym's name, logo and reply-to (gym/email-brand.ts, wired by core.ts). */
export function useEmailBrand(lookup: BrandLookup) {
  brandLookup = lookup;
}

export async function renderEmail(email: Email): Promise<Rendered> {
  const { content, kind: _kind, ...rest } = email;
  if (!content || rest.html) return rest;
  let brand = content.brand;
  if (brand.ref && brandLookup) brand = { ...brand, ...(await brandLookup(brand.ref)) };
  const { renderHtml } = await import("./layout");
  const reply_to = rest.reply_to ?? brand.reply_to ?? undefined;
  return {
    ...rest,
    ...(reply_to ? { reply_to } : {}),
    html: await renderHtml({ ...content, brand: { ...brand, reply_to } }),
  };
}

function rendering(adapter: Adapter): EmailSender {
  return { send: async (email) => adapter.send(await renderEmail(email)) };
}

let sender: EmailSender | undefined;

export function emailSender(): EmailSender {
  sender ??= rendering(config.isLocal ? outboxSender : sesSender());
  return sender;
}

export function sendEmail(email: Email): Promise<void> {
  return emailSender().send(email);
}

/**
 * The local outbox, newest first (the developer mailbox): the latest `limit`, or with `to` every
 * email to that address however many others came since (a billing run mails hundreds at once).
 */
export async function listOutbox(limit = 100, to?: string) {
  const now = Math.floor(Date.now() / 1000);
  const query = db().entities.mail.query.primary({});
  const { data } = to
    ? await query.where(({ to: recipient }, { eq }) => eq(recipient, to)).go({ order: "desc", pages: "all" })
    : await query.go({ order: "desc", limit });
  return data
    .filter((mail) => !mail.expires_at || mail.expires_at > now)
    .map(({ expires_at: _expires, ...mail }) => ({
      id: mail.mail_id,
      ...mail,
      headers: (mail.headers ?? undefined) as Record<string, string> | undefined,
    }));
}
