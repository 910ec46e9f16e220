import type { CurrentUser } from "@gym/web/auth";
import { DateField } from "@gym/web/forms/DateField";
import { Alert, Anchor, Button, Card, Group, Loader, Select, Stack, Text, Title } from "@mantine/core";
import { lazy, Suspense, useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { type DashboardFilter, useDashboard } from "../api/dashboard";
import { MemberBreakdowns, RangeBreakdowns } from "./breakdowns";
import { OffersCard } from "./offers";
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
        <DateField
          label="From"
          value={chosen?.from ?? null}
          onChange={(from) => chosen && from && setRange({ ...chosen, from })}
          w={{ base: "calc(50% - 6px)", xs: 170 }}
        />
        <DateField
          label="To"
          value={chosen?.to ?? null}
          onChange={(to) => chosen && to && setRange({ ...chosen, to })}
          w={{ base: "calc(50% - 6px)", xs: 170 }}
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
      {rangeData.data && !stats.data?.empty && <OffersCard offers={rangeData.data.offers} />}
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
