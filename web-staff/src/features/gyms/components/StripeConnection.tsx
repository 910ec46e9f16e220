import { formatDateTime } from "@gym/web/format";
import { useAction } from "@gym/web/forms";
import { Badge, Button, Group, Text } from "@mantine/core";
import { IconCreditCard } from "@tabler/icons-react";
import { browserNavigation, type Gym, startStripeConnect } from "../api/gyms";

/** Whether the gym can take card payments, and the button that sends the admin to Stripe. */
export function StripeConnection({ gym }: { gym: Gym }) {
  // To Stripe's onboarding: busy until the browser has gone there.
  const connecting = useAction(
    async () => {
      const { url } = await startStripeConnect(gym.id);
      browserNavigation.assign(url);
    },
    { errorSummary: "Could not start connecting Stripe", leavesPage: true },
  );
  return (
    <Group justify="space-between" align="center" wrap="wrap">
      <Group gap="sm">
        {gym.has_payment_account ? (
          <Badge color="green" size="lg" variant="light">
            Connected
          </Badge>
        ) : (
          <Badge color="gray" size="lg" variant="light">
            Not connected
          </Badge>
        )}
        {gym.stripe_id && (
          <Text size="sm" c="dimmed">
            Account {gym.stripe_id}
            {gym.stripe_connected_at ? ` since ${formatDateTime(gym.stripe_connected_at)}` : ""}
          </Text>
        )}
      </Group>
      <Button
        leftSection={<IconCreditCard size={16} />}
        onClick={() => void connecting.run()}
        loading={connecting.running}
        variant={gym.has_payment_account ? "default" : "filled"}
      >
        {gym.has_payment_account ? "Reconnect Stripe" : "Connect Stripe"}
      </Button>
    </Group>
  );
}
