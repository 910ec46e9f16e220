import { labelOf, paymentKindLabels } from "@gym/core/contract/labels";
import type { CurrentUser } from "@gym/web/auth";
import { administersGym } from "@gym/web/auth";
import { formatDate, formatMoney } from "@gym/web/format";
import { Anchor, Card, Group, Stack, Text } from "@mantine/core";
import { DataTable } from "mantine-datatable";
import { Link } from "react-router-dom";
import type { Payment } from "../api/payments";
import { MarkReceivedButton } from "./MarkReceived";
import { StatusBadge } from "./StatusBadge";

/** Whether this staff member may mark this payment received (organisation admin, or admin of its gym). */
export function canMarkReceived(user: CurrentUser, payment: Payment) {
  if (payment.status !== "awaiting_payment") return false;
  return administersGym(user, payment.gym.id);
}

/**
 * The total and how it is made up: the amount, less the credit it is paid from, plus the card
 * surcharge, as the member's page and the reminder read it (issue 34 tour: "$15.00 + $0.53
 * surcharge" beside a total of $9.53 paid partly from $6.00 credit).
 */
function Amount({ payment }: { payment: Payment }) {
  const parts = [
    payment.formatted_amount,
    payment.credit_used > 0 && `− ${formatMoney(payment.credit_used)} credit`,
    payment.surcharge > 0 && `+ ${payment.formatted_surcharge} surcharge`,
  ].filter(Boolean);
  return (
    <Stack gap={0} align="flex-end">
      <Text size="sm" fw={600}>
        {payment.formatted_total}
      </Text>
      {parts.length > 1 && (
        <Text size="xs" c="dimmed">
          {parts.join(" ")}
        </Text>
      )}
    </Stack>
  );
}

/** The member's name, a link to their page. */
function MemberLink({ payment, size }: { payment: Payment; size?: "sm" }) {
  return (
    <Anchor component={Link} to={`/members/${payment.user.id}`} size={size} fw={600}>
      {payment.user.name}
    </Anchor>
  );
}

function Flags({ payment }: { payment: Payment }) {
  const flags = [
    payment.is_retry && "retry",
    payment.is_pro_rata && "pro-rata",
    payment.joining_fee > 0 && "incl. joining fee",
  ].filter(Boolean);
  if (!flags.length && !payment.error_description) return null;
  return (
    <Text size="xs" c={payment.error_description ? "red" : "dimmed"}>
      {[...flags, payment.error_description].filter(Boolean).join(" · ")}
    </Text>
  );
}

export interface PaymentsViewProps {
  payments: Payment[];
  user: CurrentUser;
  fetching: boolean;
  onChanged: () => void;
}

/** Desktop: a table. */
export function PaymentsTable({ payments, user, fetching, onChanged }: PaymentsViewProps) {
  return (
    <DataTable
      withTableBorder
      borderRadius="md"
      verticalSpacing="sm"
      highlightOnHover
      fetching={fetching}
      minHeight={payments.length ? undefined : 180}
      noRecordsText="No payments match these filters"
      records={payments}
      idAccessor="id"
      aria-label="Payments"
      columns={[
        {
          accessor: "due_on",
          title: "Due",
          render: (p) => formatDate(p.due_on),
        },
        {
          accessor: "user.name",
          title: "Member",
          render: (p) => (
            <Stack gap={0}>
              <MemberLink payment={p} size="sm" />
              <Text size="xs" c="dimmed">
                {p.user.email}
              </Text>
            </Stack>
          ),
        },
        { accessor: "gym.name", title: "Gym" },
        {
          accessor: "price_label",
          title: "Membership",
          render: (p) => (
            <Stack gap={0}>
              <Text size="sm">{p.price_label ?? "—"}</Text>
              <Flags payment={p} />
            </Stack>
          ),
        },
        { accessor: "type", title: "Type", render: (p) => labelOf(paymentKindLabels, p.type) },
        {
          accessor: "status",
          title: "Status",
          noWrap: true,
          // What can be done about a status sits under it: a column of its own for one button made
          // the table wider than a 1280 px laptop's page, and cut it to "Mark rece" (issue 35).
          render: (p) => (
            <Stack gap={6} align="flex-start">
              <StatusBadge status={p.status} />
              {canMarkReceived(user, p) && <MarkReceivedButton payment={p} onDone={onChanged} />}
            </Stack>
          ),
        },
        { accessor: "total", title: "Amount", textAlign: "right", render: (p) => <Amount payment={p} /> },
      ]}
    />
  );
}

/** Phones: stacked cards. */
export function PaymentCards({ payments, user, onChanged }: PaymentsViewProps) {
  if (!payments.length) {
    return (
      <Card withBorder radius="md" p="lg">
        <Text c="dimmed" ta="center">
          No payments match these filters
        </Text>
      </Card>
    );
  }
  return (
    <Stack gap="sm" aria-label="Payments">
      {payments.map((p) => (
        <Card key={p.id} withBorder radius="md" p="md" data-payment={p.id}>
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <Stack gap={2}>
              <MemberLink payment={p} />
              <Text size="xs" c="dimmed">
                {p.gym.name} · {p.price_label ?? labelOf(paymentKindLabels, p.type)}
              </Text>
              <Text size="xs" c="dimmed">
                Due {formatDate(p.due_on)} · {labelOf(paymentKindLabels, p.type)}
              </Text>
              <Flags payment={p} />
            </Stack>
            <Stack gap={6} align="flex-end">
              <Amount payment={p} />
              <StatusBadge status={p.status} />
            </Stack>
          </Group>
          {canMarkReceived(user, p) && (
            <Group justify="flex-end" mt="sm">
              <MarkReceivedButton payment={p} onDone={onChanged} />
            </Group>
          )}
        </Card>
      ))}
    </Stack>
  );
}
