import { type CurrentUser, useAuth } from "@gym/web/auth";
import { formatLongDate } from "@gym/web/format";
import {
  Anchor,
  Badge,
  Card,
  Grid,
  Group,
  Stack,
  Text,
  ThemeIcon,
  Title,
  UnstyledButton,
} from "@mantine/core";
import {
  IconArrowRight,
  IconBuildingCommunity,
  IconBuildingStore,
  IconCash,
  IconDoorEnter,
  IconId,
  IconTicket,
  IconUsers,
  type TablerIcon,
} from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router-dom";
import { usePageTitle } from "../../../app/page-title";
import { seesMoney } from "../../shell/navigation";
import { staffRoleLabel } from "../../shell/role";
import { Figures } from "../components/figures";
import { firstName, greeting } from "../greeting";

interface NextStep {
  title: string;
  description: string;
  to: string;
  icon: TablerIcon;
  /**
   * Who the step is for: organisation admins, anyone who manages offerings and sees the money
   * (organisation and gym admins), or personal trainers (members read only, visits; no money).
   */
  for: "organisation_admins" | "managers" | "trainers";
}

const NEXT_STEPS: NextStep[] = [
  {
    title: "Set up your offerings",
    description: "Create membership plans with their access hours and prices.",
    to: "/offerings",
    icon: IconTicket,
    for: "managers",
  },
  {
    title: "Connect payments",
    description: "Add the bank account payments land in and connect card payments for each gym.",
    to: "/gyms",
    icon: IconBuildingStore,
    for: "organisation_admins",
  },
  {
    title: "Invite your team",
    description: "Give trainers and front-desk staff their own sign-in.",
    to: "/staff",
    icon: IconId,
    for: "organisation_admins",
  },
  {
    title: "Welcome members",
    description: "See who has joined, their memberships and payments.",
    to: "/members",
    icon: IconUsers,
    for: "managers",
  },
  {
    title: "Look up a member",
    description: "See who has joined and the membership they hold.",
    to: "/members",
    icon: IconUsers,
    for: "trainers",
  },
  {
    title: "See who came in",
    description: "Door check-ins at your gyms, as members arrive.",
    to: "/visits",
    icon: IconDoorEnter,
    for: "trainers",
  },
  {
    title: "Quote a first payment",
    description: "Work out what a new member pays first, with pro-rata and joining fee.",
    to: "/calculate-pro-rata",
    icon: IconCash,
    for: "managers",
  },
];

function NextSteps({ user }: { user: CurrentUser }) {
  const mayManage = user.is_organisation_admin || user.is_gym_admin;
  const steps = NEXT_STEPS.filter(
    (step) =>
      (step.for === "trainers" && !mayManage) ||
      (step.for === "managers" && mayManage) ||
      (step.for === "organisation_admins" && user.is_organisation_admin),
  );
  return (
    <Card withBorder padding="lg" h="100%" component="section" aria-labelledby="next-steps-title">
      <Title order={2} fz="lg" id="next-steps-title">
        Get started
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {mayManage ? "A few things to set up so members can join and pay." : "Where your work starts."}
      </Text>
      <Stack gap="xs">
        {steps.map((step) => {
          const Icon = step.icon;
          return (
            <UnstyledButton
              key={step.to}
              component={Link}
              to={step.to}
              p="sm"
              style={{
                borderRadius: "var(--mantine-radius-md)",
                border: "1px solid var(--mantine-color-gray-2)",
              }}
            >
              <Group wrap="nowrap" gap="md">
                <ThemeIcon size={36} radius="md" variant="light" aria-hidden>
                  <Icon size={20} />
                </ThemeIcon>
                <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                  <Text fw={600} size="sm">
                    {step.title}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {step.description}
                  </Text>
                </Stack>
                <IconArrowRight size={16} color="var(--mantine-color-gray-5)" aria-hidden />
              </Group>
            </UnstyledButton>
          );
        })}
      </Stack>
    </Card>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} ta="right" component="div">
        {children}
      </Text>
    </Group>
  );
}

function Workspace({ user }: { user: CurrentUser }) {
  const organisation = user.current_organisation;
  const gym = user.gyms.find((g) => g.id === user.current_gym?.id);
  return (
    <Card withBorder padding="lg" h="100%" aria-labelledby="workspace-title">
      <Group gap="sm" mb="md" wrap="nowrap">
        <ThemeIcon size={36} radius="md" variant="light" color="indigo" aria-hidden>
          <IconBuildingCommunity size={20} />
        </ThemeIcon>
        <Title order={2} fz="lg" id="workspace-title">
          Where you're working
        </Title>
      </Group>
      <Stack gap="sm">
        <Row label="Organisation">{organisation?.name ?? "None"}</Row>
        <Row label="Current gym">{gym?.name ?? "None"}</Row>
        <Row label="Your role here">{staffRoleLabel(user)}</Row>
        <Row label="Gyms you can reach">{user.gyms.length}</Row>
        <Row label="Multi-gym">
          <Badge variant="light" tt="none" color={organisation?.multi_gym ? "teal" : "gray"}>
            {organisation?.multi_gym ? "Yes" : "No"}
          </Badge>
        </Row>
      </Stack>
      {user.is_organisation_admin && (
        <Anchor component={Link} to="/organisation/settings" size="sm" mt="md" display="inline-block">
          Organisation settings
        </Anchor>
      )}
    </Card>
  );
}

/** The landing page after sign-in: who and where you are, and what to do next. */
export function DashboardRoute() {
  usePageTitle("Dashboard");
  const { user } = useAuth();
  // Today on the business clock (from the figures' answer); the device's date until it arrives.
  const [today, setToday] = useState<string | null>(null);
  if (!user) return null;
  const gym = user.gyms.find((g) => g.id === user.current_gym?.id);
  return (
    <Stack gap="xl" maw={1280} mx="auto">
      <Stack gap={4}>
        <Text size="sm" c="dimmed">
          {formatLongDate(today ?? new Date())}
        </Text>
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {greeting()}, {firstName(user.name)}
        </Title>
        <Text c="dimmed">
          {[user.current_organisation?.name, gym?.name].filter(Boolean).join(" · ") ||
            "You are not part of an organisation yet."}
        </Text>
      </Stack>

      {/* The figures are the business's money: admins only (docs/access-control.md). */}
      {seesMoney(user) && <Figures user={user} onToday={setToday} />}

      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <NextSteps user={user} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Workspace user={user} />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

export { DashboardRoute as Component };
