import type { Receipt } from "@gym/core/contract/receipt";
import { useApi } from "@gym/web/api";
import { ReceiptView } from "@gym/web/receipt/ReceiptView";
import { PageLoader } from "@gym/web/ui";
import { Stack } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { useParams } from "react-router-dom";

/** `/payments/:paymentId/receipt`: a paid payment's receipt, to read and print for the member. */
export function ReceiptRoute() {
  const { paymentId = "" } = useParams();
  const { data, error } = useApi<Receipt>(`/api/payments/${encodeURIComponent(paymentId)}/receipt`);
  useDocumentTitle(data ? `${data.title} ${data.number}` : "Receipt");
  if (error) throw error;
  if (!data) return <PageLoader />;
  return (
    <Stack gap="md">
      <ReceiptView receipt={data} />
    </Stack>
  );
}

export { ReceiptRoute as Component };
