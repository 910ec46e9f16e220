/**
 * Every email is written once, here, as data: a subject and a few blocks (paragraphs, a button, a
 * code, a table of lines). The plain-text part is derived from the blocks synchronously (light:
 * no React), and the HTML part is rendered from the same blocks by the one React Email layout
 * (`layout.tsx`), lazily, in the send path (`port.ts`), so nothing heavy is loaded on the API's
 * cold start. docs/communications.md lists every email and when it is sent.
 */
import type { Email } from "./port";

/** A run of text: plain, bold, or a link. */
export type Inline = string | { strong: string } | { href: string; label: string };

export type Block =
  | { p: Inline[] }
  /** A prominent link (rendered as a button). */
  | { button: { href: string; label: string } }
  /** A short code shown large (sign-in codes). */
  | { code: string }
  /** Label/value rows (receipts, reminders); `total` rows are bold. */
  | { rows: { label: string; value: string; total?: boolean }[] }
  /** Small print under a rule. */
  | { small: Inline[] };

/** What the layout shows of the gym: its name always, its logo and reply-to when known. */
export interface Brand {
  name: string;
  logo_url?: string | null;
  reply_to?: string | null;
  /** Resolved in the send path (logo, reply-to) when the builder knows only the ids. */
  ref?: { organisation_id: string; gym_id: string };
}

/**
 * The kind of an email decides whether the member's preferences may stop it
 * (docs/communications.md): `optional` emails honour email_notifications_enabled and carry a
 * one-click unsubscribe; `required` ones (sign-in codes, receipts, notices the law or the direct
 * debit rules require, failed payments) are always sent.
 */
export type EmailKind = "required" | "optional";

export interface ComposeInput {
  to: string;
  subject: string;
  brand: Brand;
  /** Shown in inbox previews. */
  preview?: string;
  blocks: Block[];
  kind?: EmailKind;
  /**
   * Optional emails: the page the footer's "Stop these emails" opens, and the address mail clients
   * POST to for a one-click unsubscribe (RFC 8058 List-Unsubscribe, List-Unsubscribe-Post).
   */
  unsubscribe?: { page: string; post: string };
  /** Overrides the brand's reply-to. */
  reply_to?: string | null;
}

function inlineText(parts: Inline[]): string {
  return parts
    .map((part) =>
      typeof part === "string" ? part : "strong" in part ? part.strong : `${part.label}: ${part.href}`,
    )
    .join("");
}

/** The plain-text part, from the same blocks as the HTML. */
export function plainText(input: Pick<ComposeInput, "blocks" | "brand" | "unsubscribe">): string {
  const out: string[] = [];
  for (const block of input.blocks) {
    if ("p" in block) out.push(inlineText(block.p));
    else if ("button" in block) out.push(`${block.button.label}: ${block.button.href}`);
    else if ("code" in block) out.push(block.code);
    else if ("rows" in block) out.push(block.rows.map((r) => `${r.label}: ${r.value}`).join("\n"));
    else out.push(`--\n${inlineText(block.small)}`);
  }
  const footer = [input.brand.name];
  if (input.unsubscribe) footer.push(`Stop these emails: ${input.unsubscribe.page}`);
  out.push(`--\n${footer.join("\n")}`);
  return out.join("\n\n");
}

/** An email ready for the sender: subject, text part, and the blocks the HTML is rendered from. */
export function compose(input: ComposeInput): Email {
  const replyTo = input.reply_to ?? input.brand.reply_to ?? null;
  return {
    to: input.to,
    subject: input.subject,
    text: plainText(input),
    ...(replyTo ? { reply_to: replyTo } : {}),
    kind: input.kind ?? "required",
    content: {
      brand: input.brand,
      blocks: input.blocks,
      preview: input.preview ?? input.subject,
      unsubscribe_url: input.unsubscribe?.page ?? null,
    },
    ...(input.unsubscribe
      ? {
          headers: {
            "List-Unsubscribe": `<${input.unsubscribe.post}>`,
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          },
        }
      : {}),
  };
}
