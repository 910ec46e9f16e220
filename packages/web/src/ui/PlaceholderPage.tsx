import { Badge, Paper, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconHammer } from "@tabler/icons-react";
import type { ReactNode } from "react";

export interface PlaceholderPageProps {
  /** The page's heading; leave it out when the surrounding layout already shows one. */
  title?: string;
  /** What will live here, in the words a member or staff member would use. */
  description?: ReactNode;
  /** The badge: never internal words (issue or project names). */
  note?: string;
  /** A way onward (e.g. back to the dashboard). */
  children?: ReactNode;
}

/**
 * The one placeholder for a screen not built yet (staff sidebar entries, join-site steps):
 * reachable, titled, and honest that it is not ready, with a way onward.
 */
export function PlaceholderPage({
  title,
  description,
  note = "Coming soon",
  children,
}: PlaceholderPageProps) {
  return (
    <Paper withBorder p={{ base: "lg", sm: "xl" }}>
      <Stack align="center" ta="center" gap="sm">
        <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
          <IconHammer size={28} />
        </ThemeIcon>
        {title && (
          <Title order={1} fz={{ base: 24, sm: 28 }}>
            {title}
          </Title>
        )}
        <Badge variant="light" color="gray">
          {note}
        </Badge>
        {description && <Text c="dimmed">{description}</Text>}
        {children}
      </Stack>
    </Paper>
  );
}
