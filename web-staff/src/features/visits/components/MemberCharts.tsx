/**
 * The member page's charts (weekly visits, cost per visit over the membership periods), with
 * @mantine/charts. Loaded with React.lazy so the staff site's first load does not carry the
 * chart library.
 */
import { formatDate, formatDayMonth, formatMoney } from "@gym/web/format";
import { BarChart, LineChart } from "@mantine/charts";
import { Anchor, Card, Group, SimpleGrid, Skeleton, Text, Title } from "@mantine/core";
import { Link } from "react-router-dom";
import { useSubscriptionPeriods, useWeeklyCostPerVisit, useWeeklyVisits } from "../api/visits";

export default function MemberCharts({ userId }: { userId: string }) {
  const { data: weekly } = useWeeklyVisits(userId);
  const { data: cost } = useWeeklyCostPerVisit(userId);
  const { data: periods } = useSubscriptionPeriods(userId);
  const total = weekly?.reduce((sum, w) => sum + w.visits, 0) ?? 0;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <Card withBorder radius="md" padding="lg" component="section" aria-label="Weekly visits">
        <Group justify="space-between" mb="sm">
          <Title order={2} fz="h4">
            Weekly visits
          </Title>
          <Anchor component={Link} to={`/visits?user_id=${userId}`} size="sm">
            {total} in 12 weeks
          </Anchor>
        </Group>
        {weekly ? (
          <BarChart
            h={180}
            data={weekly.map((w) => ({ week: formatDayMonth(w.week_start), Visits: w.visits }))}
            dataKey="week"
            series={[{ name: "Visits", color: "teal.6" }]}
            yAxisProps={{ allowDecimals: false }}
          />
        ) : (
          <Skeleton h={180} />
        )}
      </Card>
      <Card withBorder radius="md" padding="lg" component="section" aria-label="Cost per visit">
        <Title order={2} fz="h4" mb="sm">
          Cost per visit
        </Title>
        {cost?.every((w) => w.cost_per_visit === null) ? (
          // Without a visit there is no cost per visit to draw: bare axes would say nothing.
          <Text size="sm" c="dimmed" py="xl" ta="center">
            No visits yet
          </Text>
        ) : cost ? (
          <LineChart
            h={180}
            data={cost.map((w) => ({
              week: formatDayMonth(w.week_start),
              "Cost per visit": w.cost_per_visit === null ? null : w.cost_per_visit / 100,
            }))}
            dataKey="week"
            series={[{ name: "Cost per visit", color: "indigo.6" }]}
            valueFormatter={(v) => formatMoney(Math.round(v * 100))}
            connectNulls={false}
          />
        ) : (
          <Skeleton h={180} />
        )}
        {periods && periods.length > 0 && (
          <Text size="xs" c="dimmed" mt="xs">
            {periods
              .map((p) => `${p.label}: ${formatMoney(p.weekly_cost)}/week from ${formatDate(p.start_date)}`)
              .join(" · ")}
          </Text>
        )}
      </Card>
    </SimpleGrid>
  );
}
