import { Container, Stack, Text, Title } from "@mantine/core";
import { usePageTitle } from "../../../app/page-title";
import { WebhookCallsTable } from "../components/WebhookCallsTable";

/** /webhooks: the organisation's bank-feed (Akahu) webhooks, for debugging. */
export function WebhooksRoute() {
  usePageTitle("Bank-feed webhooks");
  return (
    <Container size="xl" py="lg">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            Bank-feed webhooks
          </Title>
          <Text c="dimmed" size="sm">
            What Akahu told us about bank payments and connections, newest first. Kept 90 days.
          </Text>
        </Stack>
        <WebhookCallsTable akahuOnly />
      </Stack>
    </Container>
  );
}

export { WebhooksRoute as Component };
