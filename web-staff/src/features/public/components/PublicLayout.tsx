import { BrandMark } from "@gym/web/ui";
import { Anchor, Box, Button, Container, Group, Stack } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";

/** Public information pages (privacy policy, contact): a slim header, readable column, footer links. */
export function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <Box mih="100dvh" bg="gray.0" style={{ display: "flex", flexDirection: "column" }}>
      <Box component="header" bg="white" style={{ borderBottom: "1px solid var(--mantine-color-gray-2)" }}>
        <Container size="md" py="sm">
          <Group justify="space-between" wrap="nowrap">
            <Anchor
              component={Link}
              to="/login"
              underline="never"
              c="inherit"
              aria-label="Gym back office home"
            >
              <BrandMark label="Gym back office" size="sm" />
            </Anchor>
            <Button component={Link} to="/login" variant="light" size="sm">
              Sign in
            </Button>
          </Group>
        </Container>
      </Box>
      <Container size="md" py={{ base: "lg", sm: 48 }} component="main" style={{ flex: 1 }} w="100%">
        {children}
      </Container>
      <Box component="footer" py="lg" style={{ borderTop: "1px solid var(--mantine-color-gray-2)" }}>
        <Container size="md">
          <Stack gap={4} align="center">
            <Group gap="lg" justify="center">
              <Anchor component={Link} to="/legal/privacy-policy" size="sm" c="dimmed">
                Privacy policy
              </Anchor>
              <Anchor component={Link} to="/contact-us" size="sm" c="dimmed">
                Contact us
              </Anchor>
              <Anchor component={Link} to="/login" size="sm" c="dimmed">
                Staff sign in
              </Anchor>
            </Group>
          </Stack>
        </Container>
      </Box>
    </Box>
  );
}
