import { ChangeLoginEmail } from "@gym/web/account/ChangeLoginEmail";
import type { CurrentUser } from "@gym/web/auth";
import { BrandMark } from "@gym/web/ui";
import { Avatar, Box, Button, Group, NavLink, ScrollArea, Stack, Text } from "@mantine/core";
import { IconChevronRight, IconLogout } from "@tabler/icons-react";
import { useState } from "react";
import { Link, useLocation } from "react-router-dom";
import { isLinkActive, type NavGroupEntry, type NavLinkEntry, visibleEntries } from "../navigation";
import { staffRoleLabel } from "../role";
import { NAV_ICONS } from "./navIcons";

function EntryLink({ entry, pathname }: { entry: NavLinkEntry; pathname: string }) {
  const Icon = NAV_ICONS[entry.icon];
  const active = isLinkActive(entry, pathname);
  return (
    <NavLink
      component={Link}
      to={entry.path}
      label={entry.label}
      leftSection={<Icon size={18} stroke={1.7} />}
      active={active}
      aria-current={active ? "page" : undefined}
      variant="light"
      fw={active ? 600 : 500}
      style={{ borderRadius: "var(--mantine-radius-md)" }}
    />
  );
}

/** A group opens and closes on click, and stays open while one of its pages is shown. */
function EntryGroup({ entry, pathname }: { entry: NavGroupEntry; pathname: string }) {
  const Icon = NAV_ICONS[entry.icon];
  const childActive = entry.children.some((child) => isLinkActive(child, pathname));
  const [open, setOpen] = useState(childActive);
  return (
    <NavLink
      component="button"
      type="button"
      label={entry.label}
      leftSection={<Icon size={18} stroke={1.7} />}
      rightSection={<IconChevronRight size={14} stroke={2} className="mantine-rotate-rtl" />}
      opened={childActive || open}
      onChange={(next) => setOpen(childActive ? true : next)}
      aria-expanded={childActive || open}
      fw={500}
      childrenOffset={28}
      style={{ borderRadius: "var(--mantine-radius-md)" }}
    >
      {entry.children.map((child) => (
        <EntryLink key={child.path} entry={child} pathname={pathname} />
      ))}
    </NavLink>
  );
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join("");
}

export interface SidebarProps {
  user: CurrentUser;
  onLogout: () => void;
  loggingOut?: boolean;
  /** The drawer shows the logo in its own header. */
  withLogo?: boolean;
}

/**
 * The sidebar (spec 000 §2): logo, the entries this person may see, and who is signed in (name,
 * role in words, organisation) with a Logout link.
 */
export function Sidebar({ user, onLogout, loggingOut = false, withLogo = true }: SidebarProps) {
  const { pathname } = useLocation();
  return (
    <Stack h="100%" gap={0}>
      {withLogo && (
        <Box px="md" h={64} style={{ display: "flex", alignItems: "center", flexShrink: 0 }}>
          <Link
            to="/dashboard"
            // Starts with the visible words (WCAG 2.5.3 label in name), then says where it goes.
            aria-label="Gym back office, dashboard"
            style={{ color: "inherit", textDecoration: "none" }}
          >
            <BrandMark label="Gym back office" size="sm" />
          </Link>
        </Box>
      )}
      <ScrollArea style={{ flex: 1 }} px="sm" py="xs" type="scroll">
        <nav aria-label="Main">
          <Stack gap={2}>
            {visibleEntries(user).map((entry) =>
              entry.kind === "link" ? (
                <EntryLink key={entry.path} entry={entry} pathname={pathname} />
              ) : (
                <EntryGroup key={entry.label} entry={entry} pathname={pathname} />
              ),
            )}
          </Stack>
        </nav>
      </ScrollArea>
      <Stack gap="sm" p="sm" style={{ flexShrink: 0 }}>
        <Group
          gap="sm"
          wrap="nowrap"
          pt="sm"
          style={{ borderTop: "1px solid var(--mantine-color-gray-2)" }}
          aria-label="Signed in as"
          role="group"
        >
          <Avatar radius="xl" color="indigo" size={36} src={user.profile_picture ?? undefined}>
            {initials(user.name)}
          </Avatar>
          <Box style={{ flex: 1, minWidth: 0 }}>
            <Text size="sm" fw={600} truncate="end">
              {user.name}
            </Text>
            <Text size="xs" truncate="end">
              {staffRoleLabel(user)}
            </Text>
            <Text size="xs" c="dimmed" truncate="end">
              {user.current_organisation?.name ?? "No organisation"}
            </Text>
          </Box>
        </Group>
        <ChangeLoginEmail current={user.email} />
        <Button
          variant="subtle"
          color="gray"
          justify="flex-start"
          leftSection={<IconLogout size={18} />}
          onClick={onLogout}
          loading={loggingOut}
          fullWidth
        >
          Logout
        </Button>
      </Stack>
    </Stack>
  );
}
