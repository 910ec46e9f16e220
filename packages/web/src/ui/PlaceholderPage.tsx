import { Badge, Container, Paper, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconHammer } from "@tabler/icons-react";
import type { ReactNode } from "react";

export interface PlaceholderPageProps {
  title: string;
  /** What will live here. */
  description?: ReactNode;
  /** Short note on the badge. */
  note?: string;
  children?: ReactNode;
}

/** A titled shell for a route whose screen is still being built. */
export function PlaceholderPage({
  title,
  description,
  note = "Coming soon",
  children,
}: PlaceholderPageProps) {
  useDocumentTitle(title);
  return (
    <Container size="xs" py={{ base: "xl", sm: 64 }}>
      <Paper component="main" withBorder p={{ base: "lg", sm: "xl" }}>
        <Stack align="center" ta="center" gap="sm">
          <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
            <IconHammer size={28} />
          </ThemeIcon>
          <Title order={1} fz={{ base: 24, sm: 28 }}>
            {title}
          </Title>
          <Badge variant="light" color="gray">
            {note}
          </Badge>
          {description && <Text c="dimmed">{description}</Text>}
          {children}
        </Stack>
      </Paper>
    </Container>
  );
}
