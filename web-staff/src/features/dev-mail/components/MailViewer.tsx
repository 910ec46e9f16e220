import { formatDateTime } from "@gym/web/format";
import { Box, Code, Divider, Group, Paper, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { type DevMail, recipients } from "../api/mail";

/** Links in a mail open in a new tab rather than inside the frame. */
function withBaseTarget(html: string): string {
  const base = '<base target="_blank">';
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => `${head}${base}`) : base + html;
}

export function MailViewer({ mail }: { mail: DevMail }) {
  const hasHtml = Boolean(mail.html);
  const hasText = Boolean(mail.text);
  const [view, setView] = useState<"html" | "text">(hasHtml ? "html" : "text");
  const showing = hasHtml && (view === "html" || !hasText) ? "html" : "text";

  return (
    <Paper withBorder p="lg">
      <Stack gap="xs">
        <Title order={2} fz="h3">
          {mail.subject || "(no subject)"}
        </Title>
        <Group gap="xl" wrap="wrap">
          <Text size="sm">
            <Text span c="dimmed">
              To{" "}
            </Text>
            {recipients(mail)}
          </Text>
          <Text size="sm">
            <Text span c="dimmed">
              Sent{" "}
            </Text>
            <time dateTime={mail.sent_at}>{formatDateTime(mail.sent_at)}</time>
          </Text>
          {mail.reply_to && (
            <Text size="sm">
              <Text span c="dimmed">
                Reply to{" "}
              </Text>
              {mail.reply_to}
            </Text>
          )}
          {Object.entries(mail.headers ?? {}).map(([name, value]) => (
            <Text size="sm" key={name} style={{ wordBreak: "break-all" }}>
              <Text span c="dimmed">
                {name}{" "}
              </Text>
              {value}
            </Text>
          ))}
        </Group>
        {hasHtml && hasText && (
          <SegmentedControl
            w="fit-content"
            size="xs"
            value={view}
            onChange={(value) => setView(value as "html" | "text")}
            data={[
              { label: "HTML", value: "html" },
              { label: "Text", value: "text" },
            ]}
            aria-label="Show the email as"
          />
        )}
      </Stack>
      <Divider my="md" />
      {showing === "html" ? (
        <Box
          component="iframe"
          title={`Email: ${mail.subject}`}
          // No scripts, no same-origin access: the mail cannot touch this app or its cookies.
          sandbox="allow-popups allow-popups-to-escape-sandbox"
          srcDoc={withBaseTarget(mail.html ?? "")}
          w="100%"
          h="calc(100dvh - 320px)"
          mih={360}
          bg="white"
          style={{
            border: "1px solid var(--mantine-color-gray-3)",
            borderRadius: "var(--mantine-radius-md)",
          }}
        />
      ) : (
        <Code block style={{ whiteSpace: "pre-wrap" }}>
          {mail.text || "(empty message)"}
        </Code>
      )}
    </Paper>
  );
}
