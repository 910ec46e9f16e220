import { isApiError } from "@gym/web/api";
import { useAction } from "@gym/web/forms";
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Container,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconAlertCircle } from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router-dom";
import { resyncDoorAccess, useActiveUsers } from "../api/visits";

const kindLabels = {
  credential_without_standing: "Door access without good standing",
  standing_without_credential: "Good standing without door access",
} as const;

/**
 * /active-user-debugging (organisation admins): who counts as active by the door standing rule and
 * why, and where the door access disagrees, each with a re-sync.
 */
export function ActiveUserDebuggingRoute() {
  useDocumentTitle("Active user debugging");
  // The cursors of the pages before this one (empty: the first page).
  const [trail, setTrail] = useState<string[]>([]);
  const cursor = trail[trail.length - 1] ?? null;
  const { data, error, isLoading, mutate } = useActiveUsers(cursor);
  const resyncing = useAction(
    async (userId: string) => {
      await resyncDoorAccess(userId);
      await mutate();
    },
    { errorSummary: "Door access was not re-synced" },
  );
  const resync = resyncing.run;
  const busy = resyncing.runningWith?.[0] ?? null;
  return (
    <Container size="xl" py="lg">
      <Stack gap="lg">
        <Title order={1} fz="h2">
          Active user debugging
        </Title>
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not load active users">
            {isApiError(error) && error.status === 403
              ? "Only organisation admins can see this page."
              : error.message}
          </Alert>
        )}
        {isLoading && <Skeleton h={240} />}
        {data && (
          <Group justify="space-between" aria-label="Pages">
            <Text size="sm" c="dimmed">
              Page {trail.length + 1}: {data.per_page} members a page, in the order they were added.
            </Text>
            <Group gap="xs">
              <Button
                variant="default"
                size="xs"
                disabled={trail.length === 0}
                onClick={() => setTrail((t) => t.slice(0, -1))}
              >
                Previous members
              </Button>
              <Button
                variant="default"
                size="xs"
                disabled={!data.next_cursor}
                onClick={() => data.next_cursor && setTrail((t) => [...t, data.next_cursor as string])}
              >
                Next members
              </Button>
            </Group>
          </Group>
        )}
        {data && (
          <>
            <Card withBorder radius="md" component="section" aria-label="Mismatches">
              <Title order={2} fz="h4" mb="sm">
                Mismatches on this page ({data.mismatches.length})
              </Title>
              {data.mismatches.length === 0 ? (
                <Text size="sm" c="dimmed">
                  Door access matches good standing for everyone.
                </Text>
              ) : (
                <Table>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Member</Table.Th>
                      <Table.Th>Gym</Table.Th>
                      <Table.Th>Problem</Table.Th>
                      <Table.Th>Standing</Table.Th>
                      <Table.Th>
                        <VisuallyHidden>Actions</VisuallyHidden>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.mismatches.map((m) => (
                      <Table.Tr key={`${m.user_id}-${m.gym_id}`}>
                        <Table.Td>
                          <Anchor component={Link} to={`/members/${m.user_id}`} size="sm">
                            {m.name}
                          </Anchor>
                        </Table.Td>
                        <Table.Td>{m.gym_name}</Table.Td>
                        <Table.Td>
                          <Badge color="red" variant="light">
                            {kindLabels[m.kind]}
                          </Badge>
                        </Table.Td>
                        <Table.Td>{m.reason}</Table.Td>
                        <Table.Td>
                          <Button
                            size="xs"
                            loading={busy === m.user_id}
                            disabled={busy !== null && busy !== m.user_id}
                            onClick={() => void resync(m.user_id)}
                          >
                            Re-sync door access
                          </Button>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Card>
            <Card withBorder radius="md" component="section" aria-label="Active members">
              <Title order={2} fz="h4" mb="sm">
                Active members on this page ({data.active.length})
              </Title>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Member</Table.Th>
                    <Table.Th>Gym</Table.Th>
                    <Table.Th>Why active</Table.Th>
                    <Table.Th>Door access</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.active.map((a) => (
                    <Table.Tr key={`${a.user_id}-${a.gym_id}`}>
                      <Table.Td>
                        <Anchor component={Link} to={`/members/${a.user_id}`} size="sm">
                          {a.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{a.gym_name}</Table.Td>
                      <Table.Td>{a.reason}</Table.Td>
                      <Table.Td>{a.door_status === "none" ? "–" : a.door_status.replace("_", " ")}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Card>
          </>
        )}
      </Stack>
    </Container>
  );
}

export { ActiveUserDebuggingRoute as Component };
