import { toastApiError } from "@gym/web/toast";
import { Button, Group, Loader, Text } from "@mantine/core";
import { IconDownload } from "@tabler/icons-react";
import { useRef, useState } from "react";
import { exportPayments, type PaymentFilterValues, saveFile } from "../api/payments";

/** Exports the filtered list as CSV, showing how many payments have arrived while it streams. */
export function ExportButton({ filters }: { filters: PaymentFilterValues }) {
  const [rows, setRows] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);
  const run = async () => {
    abort.current = new AbortController();
    setRows(0);
    try {
      const file = await exportPayments(filters, setRows, abort.current.signal);
      saveFile(file.blob, file.fileName);
    } catch (error) {
      if ((error as Error).name !== "AbortError") toastApiError(error, "Export failed");
    } finally {
      setRows(null);
      abort.current = null;
    }
  };
  if (rows !== null) {
    return (
      <Group gap="xs" role="status" aria-live="polite">
        <Loader size="xs" />
        <Text size="sm" data-testid="export-progress">
          Exporting… {rows.toLocaleString("en-NZ")} payments
        </Text>
        <Button size="xs" variant="subtle" color="gray" onClick={() => abort.current?.abort()}>
          Cancel
        </Button>
      </Group>
    );
  }
  return (
    <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => void run()}>
      Export CSV
    </Button>
  );
}
