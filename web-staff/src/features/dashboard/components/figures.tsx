import type { CurrentUser } from "@gym/web/auth";
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Loader,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { lazy, Suspense, useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { type DashboardFilter, useDashboard } from "../api/dashboard";
import { MemberBreakdowns, RangeBreakdowns } from "./breakdowns";
import { StatCards } from "./stat-cards";

/** The chart library is loaded with the charts, not with the staff site. */
const DashboardCharts = lazy(() => import("./charts"));

const DAY = 86_400_000;
const shift = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** What to do first when nothing is counted yet. */
function FirstSteps({ gymId }: { gymId?: string }) {
  return (
    <Card withBorder padding="lg" aria-label="Get started">
      <Title order={2} fz="lg" mb="xs">
        Nothing to count yet
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        The figures fill in as members join and pay. To start taking members:
      </Text>
      <Group>
        <Button component={Link} to="/offerings/create">
          Add an offering
        </Button>
        <Button component={Link} to={gymId ? `/gyms/${gymId}` : "/gyms"} variant="light">
          Connect Stripe
        </Button>
      </Group>
    </Card>
  );
}

/** The dashboard's figures for a gym (or the organisation), with its pickers. */
export function Figures({ user, onToday }: { user: CurrentUser; onToday?: (today: string) => void }) {
  const currentGym = user.current_gym?.id ?? user.gyms[0]?.id;
  // `?gym=<id|all>` opens the dashboard on a gym (links and tests); the picker changes it.
  const [search] = useSearchParams();
  const [gym, setGym] = useState<string>(search.get("gym") ?? currentGym ?? "all");
  const [range, setRange] = useState<{ from: string; to: string } | null>(null);
  const first = useDashboard(currentGym || user.is_organisation_admin ? { gym, from: "", to: "" } : null);
  const today = first.stats.data?.today;
  // The business date (the clock billing runs on), for the page's header.
  useEffect(() => {
    if (today) onToday?.(today);
  }, [today, onToday]);
  const chosen = range ?? (today ? { from: shift(today, -55), to: today } : null);
  const filter: DashboardFilter | null = chosen ? { gym, ...chosen } : null;
  const { stats, breakdown, range: rangeData } = useDashboard(filter);
  const gyms = [
    ...(user.is_organisation_admin ? [{ value: "all", label: "All gyms" }] : []),
    ...user.gyms.map((g) => ({ value: g.id, label: g.name })),
  ];
  const error = stats.error ?? breakdown.error ?? rangeData.error;
  return (
    <Stack gap="md">
      <Group align="flex-end" gap="sm">
        <Select
          label="Gym"
          data={gyms}
          value={gym}
          onChange={(v) => v && setGym(v)}
          allowDeselect={false}
          w={240}
        />
        <TextInput
          label="From"
          type="date"
          value={chosen?.from ?? ""}
          onChange={(e) =>
            chosen && e.currentTarget.value && setRange({ ...chosen, from: e.currentTarget.value })
          }
        />
        <TextInput
          label="To"
          type="date"
          value={chosen?.to ?? ""}
          onChange={(e) =>
            chosen && e.currentTarget.value && setRange({ ...chosen, to: e.currentTarget.value })
          }
        />
      </Group>
      {error && (
        <Alert color="red" title="The figures could not be loaded">
          {error.message}
        </Alert>
      )}
      {!stats.data ? (
        !error && <Loader size="sm" aria-label="Loading figures" />
      ) : stats.data.empty ? (
        <FirstSteps gymId={gym === "all" ? undefined : gym} />
      ) : (
        <StatCards stats={stats.data} />
      )}
      {rangeData.data && !stats.data?.empty && (
        <Suspense fallback={<Loader size="sm" aria-label="Loading charts" />}>
          <DashboardCharts range={rangeData.data} />
        </Suspense>
      )}
      {breakdown.data && !stats.data?.empty && <MemberBreakdowns breakdown={breakdown.data} />}
      {rangeData.data && !stats.data?.empty && <RangeBreakdowns range={rangeData.data} />}
      {stats.data && !stats.data.empty && (
        <Text size="xs" c="dimmed">
          Read from the daily counters (
          <Anchor component={Link} to="/payments" size="xs">
            payments
          </Anchor>{" "}
          has every payment).
        </Text>
      )}
    </Stack>
  );
}
