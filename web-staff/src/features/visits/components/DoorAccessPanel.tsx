import { formatDateTime } from "@gym/web/format";
import { useAction } from "@gym/web/forms";
import { Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from "@mantine/core";
import { resyncDoorAccess, useMemberAccess } from "../api/visits";

const statusLabels = {
  granted: "Door opens",
  revoked: "No door access",
  not_configured: "Doors not set up",
} as const;
const statusColours = { granted: "green", revoked: "red", not_configured: "gray" } as const;

/** The member page's door access: standing by the one rule, and what Kisi was asked for per gym. */
export function DoorAccessPanel({ userId, canChange }: { userId: string; canChange: boolean }) {
  const { data, mutate } = useMemberAccess(userId);
  const resync = useAction(
    async () => {
      await mutate(await resyncDoorAccess(userId), { revalidate: false });
    },
    { errorSummary: "Door access was not re-synced" },
  );
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label="Door access">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="h4">
          Door access
        </Title>
        {canChange && data?.access_control_enabled && (
          <Button size="xs" variant="light" loading={resync.running} onClick={() => void resync.run()}>
            Re-sync door access
          </Button>
        )}
      </Group>
      {!data ? (
        <Skeleton h={60} />
      ) : (
        <Stack gap={6}>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              Standing
            </Text>
            <Badge color={data.standing ? "green" : "red"} variant="light">
              {data.reason}
            </Badge>
          </Group>
          {!data.access_control_enabled && (
            <Text size="sm" c="dimmed">
              Kisi is not connected for this organisation.
            </Text>
          )}
          {data.entries.map((e) => (
            <Group key={`${e.holder}-${e.gym_id}`} justify="space-between">
              <Text size="sm">{e.gym_name ?? e.gym_id}</Text>
              <Group gap={6}>
                <Badge color={statusColours[e.status]} variant="light">
                  {statusLabels[e.status]}
                </Badge>
                <Text size="xs" c="dimmed">
                  {formatDateTime(e.synced_at)}
                </Text>
              </Group>
              {e.last_error && (
                <Text size="xs" c="red">
                  Kisi: {e.last_error}
                </Text>
              )}
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}
