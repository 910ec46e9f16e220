import { type CurrentUser, ME_KEY, useAuth } from "@gym/web/auth";
import { useAction } from "@gym/web/forms";
import { toast } from "@gym/web/toast";
import { Box, Button, Loader, Menu, VisuallyHidden } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { IconBuildingCommunity, IconBuildingStore, IconCheck, IconSelector } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { useSWRConfig } from "swr";
import { switchGym, switchOrganisation } from "../api/switch";

/** The organisation switcher shows only to people in more than one organisation (spec 000 §2). */
export function showsOrganisationSwitcher(user: CurrentUser): boolean {
  return user.organisations.length > 1;
}

/** The gym switcher shows only to people with more than one gym (spec 000 §2). */
export function showsGymSwitcher(user: CurrentUser): boolean {
  return user.gyms.length > 1;
}

/** Asks every cached answer except the user again: they belong to the previous organisation or gym. */
function useRevalidateAll() {
  const { mutate } = useSWRConfig();
  return () => void mutate((key) => key !== ME_KEY);
}

export interface SwitcherProps {
  user: CurrentUser;
  /** Re-creates the current page (a soft reload of the route). */
  onReload: () => void;
}

const TARGET_STYLES = {
  root: { minWidth: 0 },
  inner: { minWidth: 0 },
  label: { minWidth: 0, overflow: "hidden" },
};

/**
 * On a phone both switchers share the top bar with the menu button: they drop their icons there,
 * so the organisation's name has the room ("Harbour Fitness", not "Harbour …"). From `sm` up the
 * icons are back.
 */
function useRoomForIcons(): boolean {
  return useMediaQuery("(min-width: 48em)", true, { getInitialValueInEffect: false }) ?? true;
}

/** A long name cut with an ellipsis inside a switcher button. */
function Truncated({ children, ...props }: { children: ReactNode; hiddenFrom?: "sm"; visibleFrom?: "sm" }) {
  return (
    <Box
      component="span"
      display="block"
      style={{ overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}
      {...props}
    >
      {children}
    </Box>
  );
}

/**
 * A gym's name without its organisation's name in front ("Harbour Fitness Ponsonby" in
 * Harbour Fitness → "Ponsonby"): what a phone-width switcher has room for.
 */
export function shortGymName(gymName: string, organisationName: string | undefined): string {
  if (!organisationName) return gymName;
  const prefix = `${organisationName} `;
  const rest = gymName.startsWith(prefix) ? gymName.slice(prefix.length).trim() : "";
  return rest || gymName;
}

/**
 * Moves the session to another of the person's organisations. After the switch the client
 * state holds the new organisation; on the dashboard the page reloads, elsewhere the person
 * goes to the dashboard (spec 000 §2 "Organisation switch behaviour").
 */
export function OrganisationSwitcher({ user, onReload }: SwitcherProps) {
  const { setUser } = useAuth();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const revalidateAll = useRevalidateAll();
  const current = user.current_organisation;
  const icons = useRoomForIcons();
  const switching = useAction(
    async (id: string) => {
      const next = await switchOrganisation(id);
      if (pathname === "/dashboard") {
        setUser(next);
        onReload();
      } else {
        navigate("/dashboard");
        setUser(next);
      }
      revalidateAll();
      toast.success(`You are now working in ${next.current_organisation?.name ?? "the organisation"}.`, {
        summary: "Organisation switched",
      });
    },
    { errorSummary: "Could not switch organisation" },
  );
  const busy = switching.running;

  if (!showsOrganisationSwitcher(user)) return null;

  const choose = (id: string) => {
    if (id !== current?.id) void switching.run(id);
  };

  return (
    <Menu position="bottom-end" shadow="md" width={260} withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          // Not `loading`: that disables the button, and a disabled button drops the keyboard focus.
          aria-busy={busy}
          leftSection={
            busy ? (
              <Loader size={16} aria-label="Switching" />
            ) : icons ? (
              <IconBuildingCommunity size={16} />
            ) : undefined
          }
          rightSection={<IconSelector size={14} />}
          maw={{ base: "13rem", sm: "16rem", lg: "20rem" }}
          styles={TARGET_STYLES}
          title={current?.name}
        >
          <VisuallyHidden>Organisation: </VisuallyHidden>
          <Truncated>{current?.name ?? "Choose organisation"}</Truncated>
        </Button>
      </Menu.Target>
      <Menu.Dropdown mah="15rem" style={{ overflowY: "auto" }}>
        <Menu.Label>Organisations</Menu.Label>
        <Menu.RadioGroup value={current?.id ?? null} onChange={choose}>
          {user.organisations.map((organisation) => (
            <Menu.RadioItem
              key={organisation.id}
              value={organisation.id}
              checkIcon={<IconCheck size={16} />}
              closeMenuOnClick
            >
              {organisation.name}
            </Menu.RadioItem>
          ))}
        </Menu.RadioGroup>
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * Shows the current gym and lists the person's gyms with a tick on the selected one (list at
 * most 15rem high, at least 10rem wide). Choosing one switches and reloads the current route.
 */
export function GymSwitcher({ user, onReload }: SwitcherProps) {
  const { setUser } = useAuth();
  const revalidateAll = useRevalidateAll();
  const currentId = user.current_gym?.id ?? null;
  const currentName = user.gyms.find((gym) => gym.id === currentId)?.name ?? "Choose gym";
  const icons = useRoomForIcons();
  const switching = useAction(
    async (id: string) => {
      const next = await switchGym(id);
      setUser(next);
      revalidateAll();
      onReload();
      const name = next.gyms.find((gym) => gym.id === next.current_gym?.id)?.name ?? "the gym";
      toast.success(`You are now working in ${name}.`, { summary: "Gym switched" });
    },
    { errorSummary: "Could not switch gym" },
  );
  const busy = switching.running;

  if (!showsGymSwitcher(user)) return null;

  const choose = (id: string) => {
    if (id !== currentId) void switching.run(id);
  };

  return (
    <Menu position="bottom-end" shadow="md" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          // Not `loading`: that disables the button, and a disabled button drops the keyboard focus.
          aria-busy={busy}
          leftSection={
            busy ? (
              <Loader size={16} aria-label="Switching" />
            ) : icons ? (
              <IconBuildingStore size={16} />
            ) : undefined
          }
          rightSection={<IconSelector size={14} />}
          maw={{ base: "9rem", sm: "16rem", lg: "20rem" }}
          styles={TARGET_STYLES}
          title={currentName}
        >
          <VisuallyHidden>Gym: </VisuallyHidden>
          <Truncated hiddenFrom="sm">{shortGymName(currentName, user.current_organisation?.name)}</Truncated>
          <Truncated visibleFrom="sm">{currentName}</Truncated>
        </Button>
      </Menu.Target>
      <Menu.Dropdown mah="15rem" miw="10rem" style={{ overflowY: "auto" }} aria-label="Your gyms">
        <Menu.Label>Gyms</Menu.Label>
        <Menu.RadioGroup value={currentId} onChange={choose}>
          {user.gyms.map((gym) => (
            <Menu.RadioItem key={gym.id} value={gym.id} checkIcon={<IconCheck size={16} />} closeMenuOnClick>
              {gym.name}
            </Menu.RadioItem>
          ))}
        </Menu.RadioGroup>
      </Menu.Dropdown>
    </Menu>
  );
}
