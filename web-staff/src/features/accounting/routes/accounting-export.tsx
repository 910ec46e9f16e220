import { useApi } from "@gym/web/api";
import { downloadExport, type ExportProgress, saveFile } from "@gym/web/exports";
import { formatDateTime } from "@gym/web/format";
import { toastApiError } from "@gym/web/toast";
import { PageLoader } from "@gym/web/ui";
import {
  Alert,
  Anchor,
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
import { IconDownload, IconInfoCircle } from "@tabler/icons-react";
import dayjs from "dayjs";
import { useRef, useState } from "react";
import { Link } from "react-router-dom";
import { usePageTitle } from "../../../app/page-title";
import { downloadGstCsv, JOURNAL_EXPORT_PATH, useGstSummary, useJournalStatus } from "../api/accounting";

interface GymItem {
  id: string;
  name: string;
}

/** Last month, the period most exports are of. */
function lastMonth() {
  const start = dayjs().subtract(1, "month").startOf("month");
  return { from: start.format("YYYY-MM-DD"), to: start.endOf("month").format("YYYY-MM-DD") };
}

function ExportJournals({ from, to, gymId }: { from: string; to: string; gymId: string | null }) {
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const abort = useRef<AbortController | null>(null);
  const status = useJournalStatus(from, to, gymId);
  const run = async () => {
    abort.current = new AbortController();
    try {
      const file = await downloadExport(
        JOURNAL_EXPORT_PATH,
        { from, to, ...(gymId ? { gym_id: gymId } : {}) },
        setProgress,
        abort.current.signal,
      );
      saveFile(file.blob, file.fileName);
      void status.mutate();
    } catch (error) {
      if ((error as Error).name !== "AbortError") toastApiError(error, "Export failed");
    } finally {
      setProgress(null);
      abort.current = null;
    }
  };
  const exported = status.data?.exported ?? [];
  const firstExport = exported.map((d) => d.exported_at).sort()[0];
  return (
    <Stack gap="sm">
      {exported.length > 0 && (
        <Alert
          icon={<IconInfoCircle size={18} />}
          color="yellow"
          title="Exported before"
          data-testid="exported-before"
        >
          {exported.length} day{exported.length === 1 ? "" : "s"} (by gym) of this period{" "}
          {exported.length === 1 ? "was" : "were"} exported before, first on {formatDateTime(firstExport)}.
          Exporting again gives the same journals: import only the days Xero does not have yet.
        </Alert>
      )}
      {progress ? (
        <Group gap="xs" role="status" aria-live="polite">
          <Loader size="xs" />
          <Text size="sm" data-testid="export-progress">
            {progress.phase === "preparing"
              ? "Building the journals…"
              : `Downloading… ${progress.rows.toLocaleString("en-NZ")} lines`}
          </Text>
          <Button size="xs" variant="subtle" color="gray" onClick={() => abort.current?.abort()}>
            Cancel
          </Button>
        </Group>
      ) : (
        <Group>
          <Button leftSection={<IconDownload size={16} />} onClick={() => void run()}>
            Export journals for Xero
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function GstSummaryCard({ from, to }: { from: string; to: string }) {
  const { data, error } = useGstSummary(from, to);
  if (error) return <Text c="red">{error.message}</Text>;
  if (!data) return <Loader size="sm" />;
  const download = async () => {
    try {
      const file = await downloadGstCsv(from, to);
      saveFile(file.blob, file.fileName);
    } catch (e) {
      toastApiError(e, "Download failed");
    }
  };
  return (
    <Stack gap="sm">
      {!data.gst_registered && (
        <Text size="sm" c="dimmed">
          No GST number is set in the organisation settings: receipts are not tax invoices and carry no GST.
        </Text>
      )}
      <Table aria-label="GST summary">
        <Table.Tbody>
          <Table.Tr>
            <Table.Td>Total sales including GST</Table.Td>
            <Table.Td ta="right">{data.formatted_total_sales}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>GST collected</Table.Td>
            <Table.Td ta="right" data-testid="gst-collected">
              {data.formatted_gst_collected}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>Zero-rated sales</Table.Td>
            <Table.Td ta="right">{data.formatted_zero_rated}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>Tax invoices</Table.Td>
            <Table.Td ta="right">{data.invoices}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Group>
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => void download()}>
          Download CSV
        </Button>
      </Group>
    </Stack>
  );
}

/** /accounting: export a period's manual journals for Xero, and its GST summary (organisation admins). */
export function AccountingExportRoute() {
  usePageTitle("Accounting");
  const initial = lastMonth();
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const [gymId, setGymId] = useState<string | null>(null);
  const { data: gyms } = useApi<GymItem[]>("/api/gyms");
  if (!gyms) return <PageLoader />;
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(from) && /^\d{4}-\d{2}-\d{2}$/.test(to) && from <= to;
  return (
    <Container size="lg" py="lg">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            Accounting
          </Title>
          <Text c="dimmed" size="sm">
            Each day's settled payments as manual journals for Xero, and the GST return's figures.{" "}
            <Anchor component={Link} to="/accounting/accounts">
              Accounts used
            </Anchor>{" "}
            ·{" "}
            <Anchor component={Link} to="/accounting/payouts">
              Payouts
            </Anchor>
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput type="date" label="From" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
          <TextInput
            type="date"
            label="To"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
            error={valid ? undefined : "The end date must be on or after the start date"}
          />
          {gyms.length > 1 && (
            <Select
              label="Gym"
              placeholder="Every gym"
              clearable
              data={gyms.map((g) => ({ value: g.id, label: g.name }))}
              value={gymId}
              onChange={setGymId}
            />
          )}
        </SimpleGrid>
        <Paper withBorder p="lg" component="section" aria-label="Journals for Xero">
          <Stack gap="sm">
            <Title order={2} fz="h4">
              Journals for Xero
            </Title>
            <Text size="sm" c="dimmed">
              One journal a day, gym and way of paying, in Xero's manual journal import template (Accounting →
              Manual journals → Import). Past 300 lines the file is a zip of several. Only days that are over
              can be exported.
            </Text>
            {valid && <ExportJournals from={from} to={to} gymId={gymId} />}
          </Stack>
        </Paper>
        <Paper withBorder p="lg" component="section" aria-label="GST summary">
          <Stack gap="sm">
            <Title order={2} fz="h4">
              GST summary
            </Title>
            <Text size="sm" c="dimmed">
              The sum of the tax invoices issued in the period, for the GST return.
            </Text>
            {valid && <GstSummaryCard from={from} to={to} />}
          </Stack>
        </Paper>
      </Stack>
    </Container>
  );
}

export { AccountingExportRoute as Component };
