import type { DashboardStats } from "@gym/core/contract/dashboard";
import { formatMoney } from "@gym/web/format";
import { Badge, Card, Group, SimpleGrid, Stack, Text } from "@mantine/core";

type Pair = { current: number; previous: number };

/** The change against the previous period, as the card's badge says it. */
export function changeLabel({ current, previous }: Pair): { text: string; color: string } {
  if (previous === 0)
    return current === 0 ? { text: "no change", color: "gray" } : { text: "new", color: "teal" };
  const percent = Math.round(((current - previous) / Math.abs(previous)) * 100);
  if (percent === 0) return { text: "no change", color: "gray" };
  return { text: `${percent > 0 ? "+" : ""}${percent}%`, color: percent > 0 ? "teal" : "red" };
}

function StatCard(props: {
  label: string;
  pair: Pair;
  money?: boolean;
  previousLabel: string;
  goodWhenDown?: boolean;
}) {
  const show = (n: number) => (props.money ? formatMoney(n) : n.toLocaleString("en-NZ"));
  const change = changeLabel(props.pair);
  const color =
    props.goodWhenDown && change.color !== "gray" ? (change.color === "teal" ? "red" : "teal") : change.color;
  return (
    <Card withBorder padding="lg" aria-label={props.label}>
      <Stack gap={4}>
        <Text size="sm" c="dimmed" fw={500}>
          {props.label}
        </Text>
        <Group gap="xs" align="baseline" wrap="nowrap">
          <Text fz={26} fw={700} lh={1.1} data-testid={`stat-${props.label}`}>
            {show(props.pair.current)}
          </Text>
          <Badge variant="light" color={color} tt="none">
            {change.text}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed">
          {show(props.pair.previous)} {props.previousLabel}
        </Text>
      </Stack>
    </Card>
  );
}

export function StatCards({ stats }: { stats: DashboardStats }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md" component="section" aria-label="Figures">
      <StatCard label="Active members" pair={stats.active_members} previousLabel="at the end of last month" />
      <StatCard label="Revenue this month" pair={stats.revenue_collected} money previousLabel="last month" />
      <StatCard label="Expected this month" pair={stats.revenue_expected} money previousLabel="last month" />
      <StatCard label="Visits this week" pair={stats.visits_this_week} previousLabel="last week" />
      <StatCard label="Joined this week" pair={stats.joined_this_week} previousLabel="last week" />
      <StatCard label="Joined this month" pair={stats.joined_this_month} previousLabel="last month" />
      <StatCard
        label="Cancelled this month"
        pair={stats.cancelled_this_month}
        previousLabel="last month"
        goodWhenDown
      />
      <StatCard
        label="Failed payments this month"
        pair={stats.failed_count}
        previousLabel="last month"
        goodWhenDown
      />
      <StatCard
        label="Failed amount this month"
        pair={stats.failed_amount}
        money
        previousLabel="last month"
        goodWhenDown
      />
      <StatCard
        label="Members owing"
        pair={stats.owing_count}
        previousLabel="at the end of last month"
        goodWhenDown
      />
      <StatCard
        label="Amount owing"
        pair={stats.owing_amount}
        money
        previousLabel="at the end of last month"
        goodWhenDown
      />
      <StatCard
        label="Cancelled this week"
        pair={stats.cancelled_this_week}
        previousLabel="last week"
        goodWhenDown
      />
    </SimpleGrid>
  );
}
