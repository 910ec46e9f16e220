import { Anchor, Badge, Container, Paper, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconHammer } from "@tabler/icons-react";
import { Link, useLocation } from "react-router-dom";
import { allLinks, isLinkActive } from "../navigation";

/**
 * A sidebar entry whose screen is still being built: titled like the entry, inside the layout,
 * so the sidebar never leads to a 404.
 */
export function ComingSoonRoute() {
  const { pathname } = useLocation();
  const entry = allLinks().find((link) => isLinkActive(link, pathname));
  const title = entry?.label ?? "Coming soon";
  useDocumentTitle(`${title} · Gym back office`);
  return (
    <Container size="sm" py={{ base: "md", sm: 48 }}>
      <Paper withBorder p={{ base: "lg", sm: "xl" }}>
        <Stack align="center" ta="center" gap="sm">
          <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
            <IconHammer size={28} />
          </ThemeIcon>
          <Title order={1} fz={{ base: 24, sm: 28 }}>
            {title}
          </Title>
          <Badge variant="light" color="gray">
            Coming soon
          </Badge>
          {entry && <Text c="dimmed">{entry.description}</Text>}
          <Text size="sm" c="dimmed">
            This screen is on its way.{" "}
            <Anchor component={Link} to="/dashboard" size="sm">
              Back to the dashboard
            </Anchor>
          </Text>
        </Stack>
      </Paper>
    </Container>
  );
}

export { ComingSoonRoute as Component };
