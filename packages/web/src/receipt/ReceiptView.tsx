import type { Receipt } from "@gym/core/contract/receipt";
import { Button, Divider, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { formatLongDate } from "../format";

/**
 * A receipt as the member and staff see and print it (docs/communications.md "Receipts"): the
 * same layout on both sites; the print button is hidden on paper.
 */
export function ReceiptView({ receipt }: { receipt: Receipt }) {
  const { supplier, customer } = receipt;
  return (
    <Paper withBorder p={{ base: "md", xs: "xl" }} maw={640} className="receipt">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <div>
            <Title order={1} fz="h2">
              {receipt.title}
            </Title>
            <Text size="sm">Number {receipt.number}</Text>
            <Text size="sm">Date {formatLongDate(receipt.date)}</Text>
          </div>
          <Button
            variant="default"
            onClick={() => window.print()}
            className="receipt-print"
            data-print="hide"
          >
            Print
          </Button>
        </Group>
        <div>
          <Text fw={700}>{supplier.legal_name}</Text>
          {supplier.trading_name !== supplier.legal_name && (
            <Text size="sm">Trading as {supplier.trading_name}</Text>
          )}
          {supplier.gst_number && <Text size="sm">GST number {supplier.gst_number}</Text>}
        </div>
        <div>
          <Text size="sm" c="dimmed">
            To
          </Text>
          <Text>{customer.name}</Text>
          <Text size="sm">{customer.email}</Text>
        </div>
        <Divider />
        <Table aria-label="Receipt lines">
          <Table.Tbody>
            {receipt.lines.map((line) => (
              <Table.Tr key={line.label}>
                <Table.Td>{line.label}</Table.Td>
                <Table.Td ta="right">{line.formatted_amount}</Table.Td>
              </Table.Tr>
            ))}
            {receipt.period && (
              <Table.Tr>
                <Table.Td colSpan={2}>
                  <Text size="sm">
                    Period {formatLongDate(receipt.period.start)} to {formatLongDate(receipt.period.end)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            <Table.Tr>
              <Table.Th>Total paid</Table.Th>
              <Table.Th ta="right">{receipt.formatted_total}</Table.Th>
            </Table.Tr>
            {receipt.formatted_gst_included && (
              <Table.Tr>
                <Table.Td>GST included (15%)</Table.Td>
                <Table.Td ta="right">{receipt.formatted_gst_included}</Table.Td>
              </Table.Tr>
            )}
            <Table.Tr>
              <Table.Td>Paid by</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: "nowrap" }}>
                {receipt.payment_method}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}
