/**
 * The one layout every email is rendered in (React Email): the gym's logo and name on top, the
 * blocks, and a footer with the gym's name, its reply-to and, for optional emails, the unsubscribe
 * link. Imported lazily by the send path (`port.ts`): React and react-dom's server renderer are
 * ~1 MB that no API request needs until it sends an email.
 */
import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Img,
  Link,
  Preview,
  Section,
  Text,
} from "@react-email/components";
import { render } from "@react-email/render";
import type { ReactNode } from "react";
import type { Block, Brand, Inline } from "./message";

export interface EmailContent {
  brand: Brand;
  blocks: Block[];
  preview: string;
  unsubscribe_url: string | null;
}

const colors = { text: "#1a1b1e", muted: "#5c5f66", accent: "#1864ab", rule: "#dee2e6" };
const text = { fontSize: "16px", lineHeight: "24px", color: colors.text, margin: "0 0 16px" };

function inline(parts: Inline[]): ReactNode[] {
  return parts.map((part, i) =>
    typeof part === "string" ? (
      part
    ) : "strong" in part ? (
      <strong key={i}>{part.strong}</strong>
    ) : (
      <Link key={i} href={part.href} style={{ color: colors.accent }}>
        {part.label}
      </Link>
    ),
  );
}

function BlockView({ block }: { block: Block }) {
  if ("p" in block) return <Text style={text}>{inline(block.p)}</Text>;
  if ("button" in block)
    return (
      <Section style={{ margin: "8px 0 24px" }}>
        <Button
          href={block.button.href}
          style={{
            background: colors.accent,
            color: "#ffffff",
            padding: "12px 20px",
            borderRadius: "6px",
            fontSize: "16px",
            fontWeight: 600,
          }}
        >
          {block.button.label}
        </Button>
      </Section>
    );
  if ("code" in block)
    return (
      <Text style={{ ...text, fontSize: "28px", fontWeight: 700, letterSpacing: "4px" }}>{block.code}</Text>
    );
  if ("rows" in block)
    return (
      <table
        cellPadding={0}
        cellSpacing={0}
        role="presentation"
        style={{ width: "100%", margin: "0 0 16px" }}
      >
        <tbody>
          {block.rows.map((row) => (
            <tr key={row.label}>
              <td style={{ ...text, margin: 0, padding: "4px 8px 4px 0", color: colors.muted }}>
                {row.label}
              </td>
              <td
                style={{
                  ...text,
                  margin: 0,
                  padding: "4px 0",
                  textAlign: "right",
                  fontWeight: row.total ? 700 : 400,
                }}
              >
                {row.value}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  return <Text style={{ ...text, fontSize: "13px", color: colors.muted }}>{inline(block.small)}</Text>;
}

export function Layout({ content }: { content: EmailContent }) {
  const { brand } = content;
  return (
    <Html lang="en-NZ">
      <Head />
      <Preview>{content.preview}</Preview>
      <Body style={{ background: "#f8f9fa", fontFamily: "Helvetica, Arial, sans-serif", margin: 0 }}>
        <Container style={{ background: "#ffffff", maxWidth: "560px", padding: "24px", margin: "24px auto" }}>
          <Section style={{ marginBottom: "16px" }}>
            {brand.logo_url ? (
              <Img src={brand.logo_url} alt={brand.name} height="48" style={{ marginBottom: "8px" }} />
            ) : null}
            <Heading as="h1" style={{ fontSize: "20px", margin: 0, color: colors.text }}>
              {brand.name}
            </Heading>
          </Section>
          {content.blocks.map((block, i) => (
            <BlockView key={i} block={block} />
          ))}
          <Hr style={{ borderColor: colors.rule, margin: "24px 0 12px" }} />
          <Text style={{ ...text, fontSize: "13px", color: colors.muted, margin: 0 }}>
            {brand.name}
            {brand.reply_to ? (
              <>
                {" · "}
                <Link href={`mailto:${brand.reply_to}`} style={{ color: colors.muted }}>
                  {brand.reply_to}
                </Link>
              </>
            ) : null}
          </Text>
          {content.unsubscribe_url ? (
            <Text style={{ ...text, fontSize: "13px", color: colors.muted, margin: "8px 0 0" }}>
              <Link href={content.unsubscribe_url} style={{ color: colors.muted }}>
                Stop these emails
              </Link>
            </Text>
          ) : null}
        </Container>
      </Body>
    </Html>
  );
}

/** The HTML part of an email. */
export function renderHtml(content: EmailContent): Promise<string> {
  return render(<Layout content={content} />);
}
