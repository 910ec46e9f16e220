import type { CostAndVisitBreakdown, UserBreakdown } from "@gym/core/contract/dashboard";
import { formatMoney } from "@gym/web/format";
import { Anchor, Card, Group, Progress, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { Link } from "react-router-dom";

type Bucket = { key: string; label: string; count: number };

function Buckets({ title, buckets }: { title: string; buckets: Bucket[] }) {
  const most = Math.max(1, ...buckets.map((b) => b.count));
  return (
    <Card withBorder padding="lg" aria-label={title}>
      <Title order={2} fz="md" mb="sm">
        {title}
      </Title>
      {buckets.length === 0 ? (
        <Text size="sm" c="dimmed">
          No members yet.
        </Text>
      ) : (
        <Stack gap="xs">
          {buckets.map((b) => (
            <Stack key={b.key} gap={2}>
              <Group justify="space-between">
                <Text size="sm">{b.label}</Text>
                <Text size="sm" fw={600}>
                  {b.count}
                </Text>
              </Group>
              <Progress value={(b.count / most) * 100} size="sm" aria-hidden />
            </Stack>
          ))}
        </Stack>
      )}
    </Card>
  );
}

export function MemberBreakdowns({ breakdown }: { breakdown: UserBreakdown }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
      <Buckets title="Members by state" buckets={breakdown.by_state} />
      <Buckets title="Members by offering" buckets={breakdown.by_offering} />
      <Buckets title="Members by price frequency" buckets={breakdown.by_frequency} />
      <Buckets title="Members by payment type" buckets={breakdown.by_payment_type} />
    </SimpleGrid>
  );
}

export function RangeBreakdowns({ range }: { range: CostAndVisitBreakdown }) {
  return (
    <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="md">
      <Card withBorder padding="lg" aria-label="Revenue and visits per offering">
        <Title order={2} fz="md" mb="sm">
          Revenue and visits per offering
        </Title>
        {range.by_offering.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing collected in this range.
          </Text>
        ) : (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Offering</Table.Th>
                <Table.Th ta="right">Revenue</Table.Th>
                <Table.Th ta="right">Visits</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {range.by_offering.map((o) => (
                <Table.Tr key={o.offering_id}>
                  <Table.Td>{o.name}</Table.Td>
                  <Table.Td ta="right">{formatMoney(o.revenue)}</Table.Td>
                  <Table.Td ta="right">{o.visits}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      <Buckets title="Cost per visit (member-months)" buckets={range.cost_per_visit} />
      <Card withBorder padding="lg" aria-label="Churn risk">
        <Title order={2} fz="md" mb={4}>
          Churn risk
        </Title>
        <Text size="xs" c="dimmed" mb="sm">
          Paid in the range's last month and never came in that month.
        </Text>
        {range.churn_risk.length === 0 ? (
          <Text size="sm" c="dimmed">
            Everyone who paid came in.
          </Text>
        ) : (
          <Stack gap={6}>
            {range.churn_risk.map((m) => (
              <Group key={m.user_id} justify="space-between" wrap="nowrap">
                <Anchor component={Link} to={`/members/${m.user_id}`} size="sm">
                  {m.name || "Member"}
                </Anchor>
                <Text size="sm">{formatMoney(m.paid)}</Text>
              </Group>
            ))}
          </Stack>
        )}
      </Card>
    </SimpleGrid>
  );
}
