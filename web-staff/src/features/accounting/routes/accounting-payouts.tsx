import { useApi } from "@gym/web/api";
import { ExportButton } from "@gym/web/exports";
import { formatMoney } from "@gym/web/format";
import { PageLoader } from "@gym/web/ui";
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Container,
  Group,
  Loader,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import dayjs from "dayjs";
import { useState } from "react";
import { Link } from "react-router-dom";
import { usePageTitle } from "../../../app/page-title";
import { PAYOUT_EXPORT_PATH, type Payout, usePayouts } from "../api/accounting";

interface GymItem {
  id: string;
  name: string;
}

const providerLabel = { stripe: "Stripe payout", akahu: "Akahu bank payments" } as const;

function PayoutCard({ payout }: { payout: Payout }) {
  return (
    <Paper
      withBorder
      p="md"
      component="article"
      aria-label={`${providerLabel[payout.provider]} ${payout.arrival_date}`}
    >
      <Stack gap="xs">
        <Group justify="space-between">
          <Stack gap={0}>
            <Text fw={600}>
              {dayjs(payout.arrival_date).format("D MMM YYYY")}: {payout.formatted_amount} into{" "}
              {payout.gym_name}'s bank
            </Text>
            <Text size="sm" c="dimmed">
              {providerLabel[payout.provider]}
              {payout.provider === "stripe" ? ` ${payout.provider_id}` : ""}: payments{" "}
              {formatMoney(payout.gross)}
              {payout.fee ? `, fees ${formatMoney(payout.fee)}` : ""}
            </Text>
          </Stack>
          {payout.adds_up ? (
            <Badge color="green" variant="light">
              Adds up
            </Badge>
          ) : (
            <Badge color="red" leftSection={<IconAlertTriangle size={12} />} data-testid="does-not-add-up">
              Doesn't add up
            </Badge>
          )}
        </Group>
        {payout.problems.length > 0 && (
          <Alert color="red" variant="light" p="xs">
            {payout.problems.map((p) => (
              <Text key={p} size="sm">
                {p}
              </Text>
            ))}
          </Alert>
        )}
        <Table aria-label="Payments in this deposit" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Member</Table.Th>
              <Table.Th>Payment</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th ta="right">Fee</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {payout.payments.map((p) => (
              <Table.Tr key={`${p.provider_ref ?? ""}${p.payment_id ?? ""}`}>
                <Table.Td>{p.member_name ?? "—"}</Table.Td>
                <Table.Td>
                  {p.payment_id ? (
                    <Anchor component={Link} to={`/payments/${p.payment_id}/receipt`} size="sm">
                      {p.payment_id}
                    </Anchor>
                  ) : (
                    <Text size="sm">{p.provider_ref}</Text>
                  )}
                  {p.problem && (
                    <Text size="xs" c="red">
                      {p.problem}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right">{formatMoney(p.amount)}</Table.Td>
                <Table.Td ta="right">{p.fee ? formatMoney(p.fee) : "—"}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="sm" fw={500}>
          In Xero, code the bank line with:
        </Text>
        <Table aria-label="The deposit's journal">
          <Table.Tbody>
            {payout.journal.lines.map((l) => (
              <Table.Tr key={l.description}>
                <Table.Td>{l.description}</Table.Td>
                <Table.Td>{l.account}</Table.Td>
                <Table.Td>{l.tax_rate}</Table.Td>
                <Table.Td ta="right">{formatMoney(l.amount)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}

/** /accounting/payouts: each deposit into the gyms' banks with the payments inside it (organisation admins). */
export function AccountingPayoutsRoute() {
  usePageTitle("Payouts");
  const [from, setFrom] = useState(dayjs().subtract(30, "day").format("YYYY-MM-DD"));
  const [to, setTo] = useState(dayjs().format("YYYY-MM-DD"));
  const [gymId, setGymId] = useState<string | null>(null);
  const [cursors, setCursors] = useState<string[]>([]);
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(from) && /^\d{4}-\d{2}-\d{2}$/.test(to) && from <= to;
  const cursor = cursors.at(-1) ?? null;
  const { data: gyms } = useApi<GymItem[]>("/api/gyms");
  const { data, error, isLoading } = usePayouts(valid ? from : null, valid ? to : null, gymId, cursor);
  if (!gyms) return <PageLoader />;
  const restart = () => setCursors([]);
  const next = data?.meta.next_cursor ?? null;
  return (
    <Container size="lg" py="lg">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            Payouts
          </Title>
          <Text c="dimmed" size="sm">
            Each deposit into your gyms' banks with the payments inside it, to match the bank feed in Xero.{" "}
            <Anchor component={Link} to="/accounting">
              Journals and GST
            </Anchor>
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            type="date"
            label="From"
            value={from}
            onChange={(e) => {
              setFrom(e.currentTarget.value);
              restart();
            }}
          />
          <TextInput
            type="date"
            label="To"
            value={to}
            onChange={(e) => {
              setTo(e.currentTarget.value);
              restart();
            }}
            error={valid ? undefined : "The end date must be on or after the start date"}
          />
          {gyms.length > 1 && (
            <Select
              label="Gym"
              placeholder="Every gym"
              clearable
              data={gyms.map((g) => ({ value: g.id, label: g.name }))}
              value={gymId}
              onChange={(value) => {
                setGymId(value);
                restart();
              }}
            />
          )}
        </SimpleGrid>
        {valid && (
          <Group>
            <ExportButton
              path={PAYOUT_EXPORT_PATH}
              body={{ from, to, ...(gymId ? { gym_id: gymId } : {}) }}
              noun="payments"
            />
          </Group>
        )}
        {error && <Text c="red">{error.message}</Text>}
        {isLoading && <Loader size="sm" />}
        {data && data.data.length === 0 && (
          <Text c="dimmed" data-testid="no-payouts">
            No deposits arrived in this period.
          </Text>
        )}
        {data?.data.map((payout) => (
          <PayoutCard key={payout.id} payout={payout} />
        ))}
        {(cursors.length > 0 || next) && (
          <Group>
            {cursors.length > 0 && (
              <Button variant="default" onClick={() => setCursors(cursors.slice(0, -1))}>
                Newer
              </Button>
            )}
            {next && (
              <Button variant="default" onClick={() => setCursors([...cursors, next])}>
                Older
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Container>
  );
}

export { AccountingPayoutsRoute as Component };
