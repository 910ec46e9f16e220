import { BrandMark } from "@gym/web/ui";
import {
  Anchor,
  Box,
  Center,
  Group,
  List,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from "@mantine/core";
import { IconCheck } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";

const HIGHLIGHTS = [
  "Members, memberships and payments in one place",
  "Direct debit and card billing that retries for you",
  "Door access and visits for every gym you run",
];

export interface AuthLayoutProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}

/**
 * The public staff pages (sign in, password, two-factor): a brand panel beside the form on
 * wide screens, the form alone on phones.
 */
export function AuthLayout({ title, description, children }: AuthLayoutProps) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing={0} mih="100dvh">
      <Box
        visibleFrom="md"
        p={48}
        c="white"
        style={{
          background:
            "linear-gradient(145deg, var(--mantine-color-indigo-9) 0%, var(--mantine-color-indigo-6) 60%, var(--mantine-color-violet-6) 100%)",
        }}
      >
        <Stack justify="space-between" h="100%">
          <Box c="white">
            <BrandMark label="Gym back office" />
          </Box>
          <Stack gap="lg" maw={440}>
            <Title order={2} fz={34} lh={1.2} c="white">
              Run every gym in your organisation from one place.
            </Title>
            <List
              spacing="sm"
              icon={
                <ThemeIcon size={22} radius="xl" color="white" variant="white" c="indigo.7">
                  <IconCheck size={14} stroke={3} />
                </ThemeIcon>
              }
            >
              {HIGHLIGHTS.map((item) => (
                <List.Item key={item}>
                  <Text c="indigo.0">{item}</Text>
                </List.Item>
              ))}
            </List>
          </Stack>
          <Text size="sm" c="indigo.1">
            For gym staff. Members join on the registration site.
          </Text>
        </Stack>
      </Box>

      <Center component="main" p={{ base: "md", sm: "xl" }} bg="gray.0">
        <Stack w="100%" maw={420} gap="lg">
          <Box hiddenFrom="md">
            <BrandMark label="Gym back office" />
          </Box>
          <Paper withBorder shadow="sm" p={{ base: "lg", sm: 32 }}>
            <Stack gap="xs" mb="lg">
              <Title order={1} fz={26}>
                {title}
              </Title>
              {description && (
                <Text c="dimmed" size="sm">
                  {description}
                </Text>
              )}
            </Stack>
            {children}
          </Paper>
          <Group justify="center" gap="lg" component="nav" aria-label="About">
            <Anchor component={Link} to="/legal/privacy-policy" size="xs" c="dimmed">
              Privacy policy
            </Anchor>
            <Anchor component={Link} to="/contact-us" size="xs" c="dimmed">
              Contact us
            </Anchor>
          </Group>
        </Stack>
      </Center>
    </SimpleGrid>
  );
}
