import { useOptionalAuth } from "@gym/web/auth";
import { BrandMark } from "@gym/web/ui";
import { Box, Button, Container, Group, Image, Stack, Text, Title } from "@mantine/core";
import { type ReactNode, useEffect, useState } from "react";
import { useNavigate } from "react-router-dom";

type Gym = { name: string; logo: string | null };
const GYM_KEY = "join-gym";

function readGym(storage: Storage | undefined): Gym | null {
  try {
    const kept = JSON.parse(storage?.getItem(GYM_KEY) ?? "null") as Gym | null;
    return kept && typeof kept.name === "string" ? { name: kept.name, logo: kept.logo ?? null } : null;
  } catch {
    return null;
  }
}

/**
 * The gym this tab last showed, else the one this device last showed: pages that cannot know it
 * (the emailed code before the session is whole; the sign-in and unsubscribe pages an email's
 * link opens in a new tab) keep its name and logo rather than drop to the product's mark.
 */
export function rememberedGym(): Gym | null {
  return readGym(globalThis.sessionStorage) ?? readGym(globalThis.localStorage);
}

function rememberGym(gym: Gym) {
  const kept = JSON.stringify({ name: gym.name, logo: gym.logo });
  for (const storage of [globalThis.sessionStorage, globalThis.localStorage]) {
    try {
      storage?.setItem(GYM_KEY, kept);
    } catch {
      // storage disabled: the mark shows instead
    }
  }
}

/** "Sign out", for whoever is signed in (or waiting for their code) on this device. */
function SignOut() {
  const auth = useOptionalAuth();
  const navigate = useNavigate();
  if (!auth) return null;
  const { me, logout } = auth;
  if (me?.status !== "signed_in" && me?.status !== "two_factor") return null;
  return (
    <Button
      variant="subtle"
      size="compact-md"
      flex="none"
      styles={{ label: { whiteSpace: "nowrap" } }}
      onClick={() => void logout().then(() => navigate("/", { replace: true }))}
    >
      Sign out
    </Button>
  );
}

export interface JoinLayoutProps {
  title: string;
  description?: ReactNode;
  /**
   * The gym being joined: its name (and logo) head the page instead of the product's mark.
   * Not given: the gym this tab or device last showed; null: the product's mark (a page that
   * will name another gym, such as a join link still loading).
   */
  gym?: { name: string; logo: string | null } | null;
  children: ReactNode;
}

/** Phone-first page: a slim header, then one column no wider than a large phone. */
export function JoinLayout({ title, description, gym: given, children }: JoinLayoutProps) {
  useEffect(() => {
    if (given) rememberGym(given);
  }, [given]);
  const [remembered] = useState(rememberedGym);
  const gym = given === undefined ? remembered : given;
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
            <SignOut />
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
