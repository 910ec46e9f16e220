import type { CurrentUser } from "@gym/web/auth";
import { BrandMark } from "@gym/web/ui";
import { Box, Burger, Group, Stack } from "@mantine/core";
import { GlobalSearch } from "../../search";
import { GymSwitcher, OrganisationSwitcher } from "./Switchers";

export interface TopBarProps {
  user: CurrentUser;
  navOpened: boolean;
  onToggleNav: () => void;
  onReload: () => void;
}

/**
 * The top bar (spec 000 §2): the menu button on small screens, the global search (always),
 * and the organisation and gym switchers when the person has more than one of each. On a
 * phone the search takes its own row under the rest.
 */
export function TopBar({ user, navOpened, onToggleNav, onReload }: TopBarProps) {
  const switchers = (
    <Group gap="xs" wrap="nowrap" justify="flex-end" style={{ minWidth: 0 }}>
      <OrganisationSwitcher user={user} onReload={onReload} />
      <GymSwitcher user={user} onReload={onReload} />
    </Group>
  );
  return (
    <Stack h="100%" gap={0} justify="center" px={{ base: "sm", sm: "lg" }}>
      <Group h={{ base: 56, sm: "100%" }} justify="space-between" wrap="nowrap" gap="sm">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <Burger
            opened={navOpened}
            onClick={onToggleNav}
            hiddenFrom="lg"
            size="sm"
            aria-label={navOpened ? "Close navigation" : "Open navigation"}
          />
          <Box hiddenFrom="lg" visibleFrom="xs">
            <BrandMark label="Gym" size="sm" />
          </Box>
          <Box visibleFrom="sm">
            <GlobalSearch />
          </Box>
        </Group>
        {switchers}
      </Group>
      <Box hiddenFrom="sm" pb="sm">
        <GlobalSearch fullWidth />
      </Box>
    </Stack>
  );
}
