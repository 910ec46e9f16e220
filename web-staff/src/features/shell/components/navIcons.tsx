import {
  IconBuildingCommunity,
  IconBuildingStore,
  IconCalculator,
  IconCash,
  IconDoorEnter,
  IconId,
  IconLayoutDashboard,
  IconSettings,
  IconTicket,
  IconUsers,
  type TablerIcon,
} from "@tabler/icons-react";
import type { NavIcon } from "../navigation";

export const NAV_ICONS: Record<NavIcon, TablerIcon> = {
  dashboard: IconLayoutDashboard,
  members: IconUsers,
  payments: IconCash,
  visits: IconDoorEnter,
  offerings: IconTicket,
  organisation: IconBuildingCommunity,
  staff: IconId,
  gyms: IconBuildingStore,
  settings: IconSettings,
  "pro-rata": IconCalculator,
};
