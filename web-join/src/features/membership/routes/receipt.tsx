import type { Receipt } from "@gym/core/contract/receipt";
import { useApi } from "@gym/web/api";
import { ReceiptView } from "@gym/web/receipt/ReceiptView";
import { PageLoader } from "@gym/web/ui";
import { Anchor, Stack } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { Link, useParams } from "react-router-dom";

/** `/membership/receipts/:paymentId`: one of the member's receipts, to read and print. */
export function ReceiptRoute() {
  const { paymentId = "" } = useParams();
  const { data, error } = useApi<Receipt>(`/api/me/payments/${encodeURIComponent(paymentId)}/receipt`);
  useDocumentTitle(data ? `${data.title} ${data.number}` : "Receipt");
  if (error) throw error;
  if (!data) return <PageLoader />;
  return (
    <Stack gap="md" p="md" align="center">
      <Anchor component={Link} to="/membership" data-print="hide">
        Back to my membership
      </Anchor>
      <ReceiptView receipt={data} />
    </Stack>
  );
}

export { ReceiptRoute as Component };
