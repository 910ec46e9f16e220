import { labelOf, paymentKindLabels } from "@gym/core/contract/labels";
import { formatDate, formatLongDate, formatMoney } from "@gym/web/format";
import { wideScreensOnlyCell } from "@gym/web/ui";
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Container,
  Group,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconAlertCircle, IconAlertTriangle } from "@tabler/icons-react";
import { Link, useSearchParams } from "react-router-dom";
import { type ExpectedPayments, useExpectedPayments } from "../api/payments";
import { StatusBadge } from "../components/StatusBadge";

const reasonLabels: Record<ExpectedPayments["stuck"][number]["reason"], { label: string; colour: string }> = {
  overdue: { label: "Overdue, not charged", colour: "red" },
  waiting_for_consent: { label: "Waiting for bank re-consent", colour: "yellow" },
  pending_too_long: { label: "Pending too long", colour: "orange" },
  flagged: { label: "Flagged after polls", colour: "red" },
  awaiting_transfer: { label: "Bank transfer not received", colour: "yellow" },
};

function Stuck({ stuck }: { stuck: ExpectedPayments["stuck"] }) {
  if (!stuck.length)
    return (
      <Text c="dimmed" size="sm">
        Nothing is stuck.
      </Text>
    );
  return (
    <Stack gap="sm">
      {stuck.map(({ reason, detail, payment }) => (
        <Card key={`${reason}-${payment.id}`} withBorder radius="md" p="sm">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Stack gap={2}>
              <Group gap="xs">
                <Badge color={reasonLabels[reason].colour} variant="light">
                  {reasonLabels[reason].label}
                </Badge>
                <StatusBadge status={payment.status} />
              </Group>
              <Text size="sm" fw={600}>
                {payment.user.name} · {payment.gym.name}
              </Text>
              <Text size="xs" c="dimmed">
                {detail}
              </Text>
            </Stack>
            <Stack gap={0} align="flex-end">
              <Text fw={600}>{payment.formatted_total}</Text>
              <Text size="xs" c="dimmed">
                {labelOf(paymentKindLabels, payment.type)} · due {formatDate(payment.due_on)}
              </Text>
            </Stack>
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

const mismatchLabels: Record<ExpectedPayments["mismatches"][number]["kind"], string> = {
  status: "Status differs",
  amount: "Amount differs",
  not_ours: "Charge names another payment",
  missing: "Provider has no such charge",
};
const providerNames = { stripe: "Stripe", akahu: "Akahu" } as const;

/** What the daily reconciliation found the providers disagreeing with. */
function Mismatches({ mismatches }: { mismatches: ExpectedPayments["mismatches"] }) {
  if (!mismatches.length)
    return (
      <Text c="dimmed" size="sm">
        The providers agree with every payment checked so far.
      </Text>
    );
  return (
    <Stack gap="sm">
      {mismatches.map((m) => (
        <Card key={m.payment_id} withBorder radius="md" p="sm">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Stack gap={2}>
              <Group gap="xs">
                <Badge color="red" variant="light">
                  {mismatchLabels[m.kind]}
                </Badge>
                <Text size="xs" c="dimmed">
                  {providerNames[m.provider]} {m.provider_id}
                </Text>
              </Group>
              <Text size="sm" fw={600}>
                {m.user.name} · {m.gym.name}
              </Text>
              <Text size="xs" c="dimmed">
                {m.detail}
              </Text>
            </Stack>
            <Stack gap={0} align="flex-end">
              <Text size="sm">
                Ours: {m.our_status}, {formatMoney(m.our_amount)}
              </Text>
              <Text size="sm">
                {providerNames[m.provider]}: {m.provider_status ?? "none"}
                {m.provider_amount === null ? "" : `, ${formatMoney(m.provider_amount)}`}
              </Text>
              <Text size="xs" c="dimmed">
                due {formatDate(m.due_on)} · found {formatDate(m.found_at)}
              </Text>
            </Stack>
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

/** /expected-payments-debugging (organisation admins): what the next runs will charge, and what is stuck. */
export function ExpectedPaymentsRoute() {
  useDocumentTitle("Expected payments");
  const [params, setParams] = useSearchParams();
  const days = ["7", "14", "31"].includes(params.get("days") ?? "") ? Number(params.get("days")) : 14;
  const cursor = params.get("cursor");
  const { data, error, isLoading, mutate } = useExpectedPayments(days, cursor);

  return (
    <Container size="xl" py="lg">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <Stack gap={4}>
            <Title order={1} fz="h2">
              Expected payments
            </Title>
            <Text c="dimmed" size="sm">
              What the billing runs will charge, by day and gym, and payments that need a look.
            </Text>
          </Stack>
          <SegmentedControl
            value={String(days)}
            onChange={(value) => setParams({ days: value }, { replace: true })}
            data={[
              { value: "7", label: "7 days" },
              { value: "14", label: "14 days" },
              { value: "31", label: "31 days" },
            ]}
          />
        </Group>
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not load expected payments">
            {error.message}
            <div>
              <Button mt="sm" variant="light" color="red" onClick={() => void mutate()}>
                Try again
              </Button>
            </div>
          </Alert>
        )}
        {isLoading || !data ? (
          !error && <Skeleton h={320} radius="md" />
        ) : (
          <>
            {data.partial && (
              <Alert color="yellow" icon={<IconAlertTriangle size={18} />}>
                More payments due soon wait for a new bank consent than one look reads; the list of them may
                miss some (the totals by day are complete).
              </Alert>
            )}
            <Stack gap="xs">
              <Title order={2} fz="h4">
                Provider mismatches ({(data.mismatches ?? []).length})
              </Title>
              <Mismatches mismatches={data.mismatches ?? []} />
            </Stack>
            <Stack gap="xs">
              <Title order={2} fz="h4">
                Needs attention{cursor ? " (older)" : ""}
              </Title>
              <Text size="sm">
                Owing now: {data.owing.formatted_amount} across {data.owing.count}{" "}
                {data.owing.count === 1 ? "membership" : "memberships"}.
              </Text>
              <Stuck stuck={data.stuck} />
              {(cursor || data.next_cursor) && (
                <Group gap="xs">
                  {cursor && (
                    <Button variant="default" onClick={() => setParams({ days: String(days) })}>
                      Newest
                    </Button>
                  )}
                  {data.next_cursor && (
                    <Button
                      variant="default"
                      onClick={() => setParams({ days: String(days), cursor: data.next_cursor ?? "" })}
                    >
                      Older
                    </Button>
                  )}
                </Group>
              )}
            </Stack>
            <Stack gap="xs">
              <Title order={2} fz="h4">
                Next runs: {formatDate(data.today)} to {formatDate(data.until)}
              </Title>
              {data.days.length === 0 ? (
                <Text c="dimmed" size="sm">
                  Nothing is due in these days.
                </Text>
              ) : (
                <Table.ScrollContainer minWidth={280}>
                  <Table withTableBorder verticalSpacing="sm" aria-label="Expected payments by day and gym">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Day</Table.Th>
                        <Table.Th>Gym</Table.Th>
                        <Table.Th {...wideScreensOnlyCell}>Payments</Table.Th>
                        <Table.Th {...wideScreensOnlyCell}>By type</Table.Th>
                        <Table.Th ta="right">Total</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {data.days.flatMap((day) =>
                        day.gyms.map((group, index) => (
                          <Table.Tr key={`${day.date}-${group.gym.id}`}>
                            <Table.Td>
                              {index === 0 ? (
                                <Anchor
                                  component={Link}
                                  to={`/payments?from=${day.date}&to=${day.date}&status=upcoming`}
                                >
                                  {formatLongDate(day.date)}
                                </Anchor>
                              ) : null}
                            </Table.Td>
                            <Table.Td>{group.gym.name}</Table.Td>
                            <Table.Td {...wideScreensOnlyCell}>{group.count}</Table.Td>
                            <Table.Td {...wideScreensOnlyCell}>
                              {Object.entries(group.by_type)
                                .map(([type, n]) => `${labelOf(paymentKindLabels, type)} ${n}`)
                                .join(", ")}
                            </Table.Td>
                            <Table.Td ta="right" fw={600}>
                              {group.formatted_total}
                            </Table.Td>
                          </Table.Tr>
                        )),
                      )}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </Stack>
          </>
        )}
      </Stack>
    </Container>
  );
}

export { ExpectedPaymentsRoute as Component };
