import { formatLongDate } from "@gym/web/format";
import { submitHandler, useZodForm } from "@gym/web/forms";
import { DateField } from "@gym/web/forms/DateField";
import {
  Alert,
  Button,
  Container,
  Divider,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { IconAlertCircle, IconCalculator } from "@tabler/icons-react";
import { useState } from "react";
import { usePageTitle } from "../../../app/page-title";
import { calculateProRata, type ProRataResult, proRataFormSchema, useRecurringPrices } from "../api/pro-rata";

function Breakdown({ result }: { result: ProRataResult }) {
  const rows: [string, string][] = result.is_pro_rata
    ? [
        [
          `Pro-rata: ${result.pro_rata_days} of ${result.period_days} days (period from ${formatLongDate(result.period_start)})`,
          result.formatted_pro_rata_amount,
        ],
        ["Joining fee", result.formatted_joining_fee],
      ]
    : [
        ["First full period", result.formatted_recurring_amount],
        ["Joining fee", result.formatted_joining_fee],
      ];
  return (
    <Paper withBorder p="lg" aria-label="First payment" component="section">
      <Stack gap="md">
        <div>
          <Title order={2} fz="h4">
            First payment
          </Title>
          <Text size="sm" c="dimmed">
            {result.offering.name}: {result.price_label}
          </Text>
        </div>
        <Table>
          <Table.Tbody>
            {rows.map(([label, amount]) => (
              <Table.Tr key={label}>
                <Table.Td>{label}</Table.Td>
                <Table.Td ta="right">{amount}</Table.Td>
              </Table.Tr>
            ))}
            <Table.Tr fw={700}>
              <Table.Td>Due {formatLongDate(result.first_payment_date)}</Table.Td>
              <Table.Td ta="right" data-testid="first-payment-total">
                {result.formatted_first_payment_total}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        <Text size="sm" c="dimmed">
          By card: {result.formatted_first_payment_total_with_card_surcharge} (includes a{" "}
          {result.formatted_card_surcharge} surcharge). Bank payments carry no surcharge.
        </Text>
        <Divider />
        <Text size="sm">
          Then {result.formatted_recurring_amount} {result.frequency_label.toLowerCase()} from{" "}
          {formatLongDate(result.first_full_payment_date)}.
        </Text>
      </Stack>
    </Paper>
  );
}

/** /calculate-pro-rata: pick a price and dates, see the first payment broken down. */
export function CalculateProRataRoute() {
  usePageTitle("Calculate pro-rata");
  const { prices, error, retry } = useRecurringPrices();
  const [result, setResult] = useState<ProRataResult | null>(null);
  const form = useZodForm({
    schema: proRataFormSchema,
    mode: "controlled",
    initialValues: { price_id: null, start_date: null, billing_date: null },
    onValuesChange: () => setResult(null),
  });

  const handleSubmit = submitHandler(
    form,
    async (values) => {
      setResult(await calculateProRata(values));
    },
    { fieldMap: { price: "price_id" }, errorSummary: "Could not calculate" },
  );

  const groups = new Map<string, { value: string; label: string }[]>();
  for (const price of prices ?? []) {
    const items = groups.get(price.offering.name) ?? [];
    items.push({ value: price.id, label: `${price.label}${price.private ? " (private)" : ""}` });
    groups.set(price.offering.name, items);
  }
  const data = [...groups].map(([group, items]) => ({ group, items }));

  return (
    <Container size="md" py="lg">
      <Stack gap="lg">
        <div>
          <Title order={1} fz="h2">
            Calculate pro-rata
          </Title>
          <Text c="dimmed" size="sm">
            When a member starts before their billing date, the first payment covers the days in between at
            the rate of the period they fall in, plus any joining fee.
          </Text>
        </div>
        {error && !prices && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not load the prices">
            {error.message}{" "}
            <Button size="xs" variant="light" color="red" onClick={retry}>
              Try again
            </Button>
          </Alert>
        )}
        <Paper withBorder p="lg">
          <form noValidate onSubmit={handleSubmit} aria-label="Pro-rata">
            <Stack gap="md">
              <Select
                label="Price"
                placeholder={prices ? "Choose a price" : "Loading prices…"}
                withAsterisk
                searchable
                nothingFoundMessage="No prices"
                data={data}
                {...form.getInputProps("price_id")}
              />
              <SimpleGrid cols={{ base: 1, xs: 2 }}>
                <DateField
                  label="Start date"
                  description="The member's first day"
                  withAsterisk
                  {...form.getInputProps("start_date")}
                />
                <DateField
                  label="Billing date"
                  description="The first full payment"
                  withAsterisk
                  {...form.getInputProps("billing_date")}
                />
              </SimpleGrid>
              <Group justify="flex-end">
                <Button type="submit" leftSection={<IconCalculator size={16} />} loading={form.submitting}>
                  Calculate
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
        {result && <Breakdown result={result} />}
      </Stack>
    </Container>
  );
}

export { CalculateProRataRoute as Component };
