import { BrandMark } from "@gym/web/ui";
import { Box, Container, Group, Image, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

export interface JoinLayoutProps {
  title: string;
  description?: ReactNode;
  /** The gym being joined: its name (and logo) head the page instead of the product's mark. */
  gym?: { name: string; logo: string | null } | null;
  children: ReactNode;
}

/** Phone-first page: a slim header, then one column no wider than a large phone. */
export function JoinLayout({ title, description, gym, children }: JoinLayoutProps) {
  return (
    <Box mih="100dvh" bg="gray.0">
      <Box component="header" bg="white" style={{ borderBottom: "1px solid var(--mantine-color-gray-2)" }}>
        <Container size={480} py="sm">
          {/* As tall as a logo whether the product's mark or the gym's name shows, so the page
              does not move when the gym's details arrive (the shell in index.html matches). */}
          <Group justify="space-between" wrap="nowrap" mih={32}>
            {gym ? (
              <Group gap="sm" wrap="nowrap">
                {gym.logo && <Image src={gym.logo} alt="" h={32} w={32} fit="contain" radius="sm" />}
                <Text fw={800} fz="lg" lh={1.2}>
                  {gym.name}
                </Text>
              </Group>
            ) : (
              <BrandMark size="sm" label="Join" />
            )}
          </Group>
        </Container>
      </Box>
      <Container
        size={480}
        px="md"
        pt={{ base: "lg", sm: 40 }}
        pb="calc(var(--mantine-spacing-xl) + env(safe-area-inset-bottom))"
      >
        <Stack gap="lg" component="main">
          <Stack gap={6}>
            <Title order={1} fz={{ base: 26, sm: 30 }} lh={1.2}>
              {title}
            </Title>
            {description && <Text c="gray.7">{description}</Text>}
          </Stack>
          {children}
        </Stack>
      </Container>
    </Box>
  );
}
