import { Container, Stack, Text, Title } from "@mantine/core";
import { usePageTitle } from "../../../app/page-title";
import { WebhookCallsTable } from "../components/WebhookCallsTable";

/** /webhook-calls: every inbound provider call (Stripe, Akahu, Kisi), for debugging. */
export function WebhookCallsRoute() {
  usePageTitle("Webhook calls");
  return (
    <Container size="xl" py="lg">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            Webhook calls
          </Title>
          <Text c="dimmed" size="sm">
            Every call Stripe, Akahu and Kisi made to us, with how we answered, newest first. Kept 90 days.
          </Text>
        </Stack>
        <WebhookCallsTable />
      </Stack>
    </Container>
  );
}

export { WebhookCallsRoute as Component };
