import type { CostAndVisitBreakdown } from "@gym/core/contract/dashboard";
import { formatMoney } from "@gym/web/format";
import { Card, Table, Text, Title } from "@mantine/core";

type Offers = CostAndVisitBreakdown["offers"];

/** The range's offers (docs/offers.md "Reporting"): each figure a row, its label the row's header. */
const ROWS: { label: string; value: (o: Offers) => string }[] = [
  { label: "Trials started", value: (o) => String(o.trials_started) },
  { label: "Trials converted", value: (o) => String(o.trials_converted) },
  { label: "Trials stopped", value: (o) => String(o.trials_stopped) },
  { label: "Promo codes used", value: (o) => String(o.codes_used) },
  { label: "Given away by promo codes", value: (o) => formatMoney(o.discount_given) },
  { label: "Visit passes sold", value: (o) => String(o.passes_sold) },
  { label: "Pass visits used", value: (o) => String(o.pass_visits_used) },
];

export function OffersCard({ offers }: { offers: Offers }) {
  return (
    <Card component="section" withBorder padding="lg" aria-labelledby="offers-title">
      <Title order={2} fz="md" mb={4} id="offers-title">
        Offers
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        Trials, promo codes and visit passes in the range.
      </Text>
      <Table>
        <Table.Tbody>
          {ROWS.map((row) => (
            <Table.Tr key={row.label}>
              <Table.Th scope="row" fw={400}>
                {row.label}
              </Table.Th>
              <Table.Td ta="right" fw={600}>
                {row.value(offers)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
