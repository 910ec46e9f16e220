/**
 * The dashboard's charts (@mantine/charts, on recharts). Loaded with React.lazy from the
 * dashboard page, so the chart library is its own chunk and not in the staff site's initial JS.
 */
import type { CostAndVisitBreakdown } from "@gym/core/contract/dashboard";
import { formatDayMonth } from "@gym/web/format";
import { BarChart, LineChart } from "@mantine/charts";
import { Card, SimpleGrid, Title } from "@mantine/core";

const dollars = (cents: number) => Math.round(cents) / 100;

export default function DashboardCharts({ range }: { range: CostAndVisitBreakdown }) {
  const weeks = range.by_week.map((w) => ({
    week: formatDayMonth(w.week),
    Collected: dollars(w.collected),
    Expected: dollars(w.expected),
    Joined: w.joined,
    Cancelled: w.cancelled,
  }));
  const days = range.visits_by_day.map((d) => ({ day: formatDayMonth(d.day), Visits: d.visits }));
  return (
    <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="md">
      <Card withBorder padding="lg" aria-label="Revenue by week">
        <Title order={2} fz="md" mb="md">
          Revenue by week (collected vs expected)
        </Title>
        <BarChart
          h={220}
          data={weeks}
          dataKey="week"
          valueFormatter={(v) => `$${v.toLocaleString("en-NZ")}`}
          series={[
            { name: "Collected", color: "teal.6" },
            { name: "Expected", color: "gray.5" },
          ]}
        />
      </Card>
      <Card withBorder padding="lg" aria-label="Members by week">
        <Title order={2} fz="md" mb="md">
          Joins and cancellations by week
        </Title>
        <BarChart
          h={220}
          data={weeks}
          dataKey="week"
          series={[
            { name: "Joined", color: "indigo.6" },
            { name: "Cancelled", color: "red.6" },
          ]}
        />
      </Card>
      <Card withBorder padding="lg" aria-label="Visits by day">
        <Title order={2} fz="md" mb="md">
          Visits by day
        </Title>
        <LineChart
          h={220}
          data={days}
          dataKey="day"
          series={[{ name: "Visits", color: "blue.6" }]}
          curveType="linear"
        />
      </Card>
    </SimpleGrid>
  );
}
