import { useAuth } from "@gym/web/auth";
import { formatDateTime } from "@gym/web/format";
import { wideScreensOnly } from "@gym/web/ui";
import { Alert, Badge, Button, Code, Group, Select, Stack, Text } from "@mantine/core";
import { IconAlertCircle, IconChevronLeft, IconChevronRight } from "@tabler/icons-react";
import { DataTable } from "mantine-datatable";
import { Fragment, useState } from "react";
import {
  useWebhookCalls,
  type WebhookCall,
  type WebhookOutcome,
  type WebhookProvider,
} from "../api/webhooks";

const OUTCOME_COLOURS: Record<WebhookOutcome, string> = {
  accepted: "green",
  refused: "yellow",
  duplicate: "gray",
  rejected: "orange",
  error: "red",
};
const PROVIDERS = [
  { value: "stripe", label: "Stripe" },
  { value: "akahu", label: "Akahu" },
  { value: "kisi", label: "Kisi" },
];
const OUTCOMES = [
  { value: "accepted", label: "Accepted" },
  { value: "duplicate", label: "Duplicate" },
  { value: "refused", label: "Refused" },
  { value: "rejected", label: "Rejected" },
  { value: "error", label: "Error" },
];
export const PER_PAGE = 25;

/**
 * The webhook log with filters and cursor paging (newest first). `akahuOnly` shows the
 * organisation's bank-feed webhooks; otherwise every inbound provider call.
 */
export function WebhookCallsTable({ akahuOnly = false }: { akahuOnly?: boolean }) {
  const { user } = useAuth();
  const [provider, setProvider] = useState<WebhookProvider | null>(null);
  const [outcome, setOutcome] = useState<WebhookOutcome | null>(null);
  // The cursors of the pages before this one; the last is this page's.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1];
  const source = akahuOnly
    ? ({ kind: "akahu", organisationId: user?.current_organisation?.id } as const)
    : ({ kind: "all" } as const);
  const { data, error, isLoading } = useWebhookCalls(source, {
    provider,
    outcome,
    cursor,
    per_page: PER_PAGE,
  });
  const [expanded, setExpanded] = useState<string[]>([]);

  const resetPaging = () => setCursors([null]);
  const next = data?.meta.next_cursor ?? null;

  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end">
        {!akahuOnly && (
          <Select
            label="Provider"
            placeholder="All providers"
            data={PROVIDERS}
            value={provider}
            onChange={(value) => {
              setProvider(value as WebhookProvider | null);
              resetPaging();
            }}
            clearable
            w={180}
          />
        )}
        <Select
          label="Outcome"
          placeholder="All outcomes"
          data={OUTCOMES}
          value={outcome}
          onChange={(value) => {
            setOutcome(value as WebhookOutcome | null);
            resetPaging();
          }}
          clearable
          w={180}
        />
      </Group>
      {error && (
        <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not load the webhook log">
          {error.message}
        </Alert>
      )}
      <DataTable<WebhookCall>
        withTableBorder
        borderRadius="md"
        minHeight={200}
        fetching={isLoading}
        records={data?.data ?? []}
        idAccessor="id"
        noRecordsText="No webhook calls"
        aria-label="Webhook calls"
        columns={[
          { accessor: "received_at", title: "Received", render: (call) => formatDateTime(call.received_at) },
          ...(akahuOnly
            ? []
            : [
                {
                  accessor: "provider",
                  title: "Provider",
                  ...wideScreensOnly,
                  render: (call: WebhookCall) => PROVIDERS.find((p) => p.value === call.provider)?.label,
                },
              ]),
          {
            accessor: "event_type",
            title: "Event",
            render: (call) => (
              <Text size="sm" style={{ overflowWrap: "anywhere" }}>
                {/* Break long names after their dots and underscores, not mid-word. */}
                {call.event_type.split(/(?<=[._])/).map((part, i) => (
                  <Fragment key={i}>
                    {i > 0 && <wbr />}
                    {part}
                  </Fragment>
                ))}
              </Text>
            ),
          },
          {
            accessor: "outcome",
            title: "Outcome",
            noWrap: true,
            render: (call) => (
              <Badge
                color={OUTCOME_COLOURS[call.outcome]}
                variant="light"
                miw="fit-content"
                styles={{ label: { overflow: "visible" } }}
              >
                {call.outcome}
              </Badge>
            ),
          },
          { accessor: "status_code", title: "Answer", textAlign: "right", ...wideScreensOnly },
          {
            accessor: "event_id",
            title: "Event id",
            render: (call) => call.event_id ?? "--",
            ...wideScreensOnly,
          },
        ]}
        rowExpansion={{
          allowMultiple: true,
          expanded: { recordIds: expanded, onRecordIdsChange: setExpanded },
          content: ({ record }) => (
            <Stack gap="xs" p="md">
              {record.detail && (
                <Text size="sm">
                  <strong>Detail:</strong> {record.detail}
                </Text>
              )}
              <Text size="xs" c="dimmed">
                Body (card and bank numbers, tokens and secrets removed)
              </Text>
              <Code block>{JSON.stringify(record.body, null, 2)}</Code>
            </Stack>
          ),
        }}
      />
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Page {cursors.length}
        </Text>
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconChevronLeft size={16} />}
            disabled={cursors.length === 1}
            onClick={() => setCursors((c) => c.slice(0, -1))}
          >
            Newer
          </Button>
          <Button
            variant="default"
            rightSection={<IconChevronRight size={16} />}
            disabled={!next}
            onClick={() => next && setCursors((c) => [...c, next])}
          >
            Older
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
