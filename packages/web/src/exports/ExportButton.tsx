import { Button, Group, Loader, Text } from "@mantine/core";
import { IconDownload } from "@tabler/icons-react";
import { useRef, useState } from "react";
import { toastApiError } from "../toast";
import { downloadExport, type ExportProgress, saveFile } from "./download";

/**
 * "Export CSV" for a list page: runs the export with the page's filters, shows that the file is
 * being prepared and then how many rows (`noun`) have arrived, and can be cancelled.
 */
export function ExportButton({
  path,
  body,
  noun,
}: {
  path: string;
  body: Record<string, unknown>;
  noun: string;
}) {
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const abort = useRef<AbortController | null>(null);
  const run = async () => {
    abort.current = new AbortController();
    try {
      const file = await downloadExport(path, body, setProgress, abort.current.signal);
      saveFile(file.blob, file.fileName);
    } catch (error) {
      if ((error as Error).name !== "AbortError") toastApiError(error, "Export failed");
    } finally {
      setProgress(null);
      abort.current = null;
    }
  };
  if (progress) {
    return (
      <Group gap="xs" role="status" aria-live="polite">
        <Loader size="xs" />
        <Text size="sm" data-testid="export-progress">
          {progress.phase === "preparing"
            ? "Preparing the export…"
            : `Downloading… ${progress.rows.toLocaleString("en-NZ")} ${noun}`}
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
