import { PageLoader } from "@gym/web/ui";
import {
  Anchor,
  Badge,
  Breadcrumbs,
  Button,
  Container,
  Group,
  Image,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { IconPencil } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { Link, useParams } from "react-router-dom";
import { usePageTitle } from "../../../app/page-title";
import { useGym } from "../api/gyms";
import { GymLoadFailure } from "../components/Access";

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

const yesNo = (ok: boolean, yes: string, no: string) => (
  <Badge color={ok ? "green" : "gray"} variant="light">
    {ok ? yes : no}
  </Badge>
);

/** /gyms/{id}: what is set up and what is not. */
export function GymShowRoute() {
  const { id } = useParams();
  const { data: gym, error, mutate } = useGym(id);
  usePageTitle(gym?.name ?? "Gym");
  if (error && !gym) return <GymLoadFailure error={error} onRetry={() => void mutate()} />;
  if (!gym) return <PageLoader />;
  const trackingDoors = gym.doors.filter((door) => door.integration.tracks_visits);
  return (
    <Container size="lg" py="lg">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end">
          <Stack gap={4}>
            <Breadcrumbs>
              <Anchor component={Link} to="/gyms" size="sm">
                Gyms
              </Anchor>
            </Breadcrumbs>
            <Group gap="md">
              {gym.logo && <Image src={gym.logo} alt={`${gym.name} logo`} w={48} h={48} fit="contain" />}
              <Title order={1} fz="h2">
                {gym.name}
              </Title>
            </Group>
          </Stack>
          <Button component={Link} to={`/gyms/${gym.id}/edit`} leftSection={<IconPencil size={16} />}>
            Edit gym
          </Button>
        </Group>
        <Paper withBorder p="lg">
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
            <Fact label="Staff">{gym.staff_count}</Fact>
            <Fact label="Members">{gym.members_count}</Fact>
            <Fact label="Destination account">
              {gym.destination_account
                ? `${gym.destination_account.name}, ${gym.destination_account.bank_account_number}`
                : "Not set"}
            </Fact>
            <Fact label="Card payments">
              {yesNo(gym.has_payment_account, "Stripe connected", "Not connected")}
            </Fact>
            <Fact label="Visit tracking">{yesNo(gym.tracks_visits, "On", "Off")}</Fact>
            <Fact label="Door access">
              {gym.place
                ? `${gym.place.name}: ${gym.doors.length} doors, ${trackingDoors.length} tracking visits`
                : "No place linked"}
            </Fact>
            <Fact label="Branch app">{gym.branch_key ? gym.branch_key : "Not set"}</Fact>
            <Fact label="Bank feed (Akahu)">
              {gym.akahu_app_token ? gym.akahu_app_token : "Platform app"}
            </Fact>
            <Fact label="Break fee">{gym.break_fee_percentage}</Fact>
          </SimpleGrid>
        </Paper>
      </Stack>
    </Container>
  );
}

export { GymShowRoute as Component };
