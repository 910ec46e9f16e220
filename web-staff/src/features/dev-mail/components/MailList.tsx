import { formatDateTime } from "@gym/web/format";
import { NavLink, Paper, ScrollArea, Text } from "@mantine/core";
import { type DevMail, recipients } from "../api/mail";

export interface MailListProps {
  mails: DevMail[];
  selectedId: string | undefined;
  onSelect: (id: string) => void;
}

export function MailList({ mails, selectedId, onSelect }: MailListProps) {
  return (
    <Paper withBorder p={4}>
      <ScrollArea.Autosize mah="calc(100dvh - 220px)" type="auto">
        <nav aria-label="Emails">
          {mails.map((mail) => (
            <NavLink
              key={mail.id}
              component="button"
              type="button"
              active={mail.id === selectedId}
              aria-current={mail.id === selectedId ? "true" : undefined}
              onClick={() => onSelect(mail.id)}
              variant="light"
              style={{ borderRadius: "var(--mantine-radius-md)" }}
              label={
                <Text fw={600} size="sm" lineClamp={1}>
                  {mail.subject || "(no subject)"}
                </Text>
              }
              description={
                <>
                  <Text span size="xs" c="dimmed" display="block" truncate="end">
                    {recipients(mail)}
                  </Text>
                  <Text span size="xs" c="dimmed">
                    {formatDateTime(mail.sent_at)}
                  </Text>
                </>
              }
            />
          ))}
        </nav>
      </ScrollArea.Autosize>
    </Paper>
  );
}
