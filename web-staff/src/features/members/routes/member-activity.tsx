import { memberFieldLabels } from "@gym/core/contract/member";
import { isApiError } from "@gym/web/api";
import { formatDateTime } from "@gym/web/format";
import { Alert, Anchor, Container, Group, Skeleton, Stack, Text, Timeline, Title } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import {
  IconAlertCircle,
  IconArrowLeft,
  IconCash,
  IconCircleCheck,
  IconCircleX,
  IconPencil,
  IconPlayerPause,
  IconUserPlus,
} from "@tabler/icons-react";
import { Link, useParams } from "react-router-dom";
import { type MemberActivity, useMember, useMemberActivity } from "../api/members";

function iconOf(kind: string) {
  if (kind === "member_updated") return <IconPencil size={14} />;
  if (kind === "subscription_created") return <IconUserPlus size={14} />;
  if (kind.includes("pause")) return <IconPlayerPause size={14} />;
  if (kind === "payment_failed" || kind.includes("cancel") || kind === "member_deleted")
    return <IconCircleX size={14} />;
  if (kind.startsWith("payment")) return <IconCash size={14} />;
  return <IconCircleCheck size={14} />;
}

function Entry({ entry }: { entry: MemberActivity }) {
  return (
    <Stack gap={2}>
      {entry.detail && (
        <Text size="sm" c="dimmed">
          {entry.detail}
        </Text>
      )}
      {entry.changes.length > 0 && (
        <Stack gap={0}>
          {entry.changes.map((c) => (
            <Text key={c.field} size="xs" c="dimmed">
              {memberFieldLabels[c.field] ?? c.field.replace(/_/g, " ")}: {c.from ?? "(empty)"} →{" "}
              {c.to ?? "(empty)"}
            </Text>
          ))}
        </Stack>
      )}
      <Text size="xs" c="dimmed">
        {formatDateTime(entry.at)} · {entry.by ? entry.by.name : "System"}
      </Text>
    </Stack>
  );
}

/** /members/{id}/activity (members.activity): everything that happened to the member, newest first. */
export function MemberActivityRoute() {
  const { id } = useParams();
  const { data: member } = useMember(id);
  const { data, error, isLoading } = useMemberActivity(id);
  useDocumentTitle(member ? `${member.name}: activity` : "Activity");
  const entries = data?.data ?? [];
  return (
    <Container size="md" py="lg">
      <Stack gap="lg">
        <Anchor component={Link} to={`/members/${id}`} size="sm">
          <Group gap={4}>
            <IconArrowLeft size={14} /> {member?.name ?? "Member"}
          </Group>
        </Anchor>
        <Title order={1} fz="h2">
          Activity{member ? `: ${member.name}` : ""}
        </Title>
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not load the activity">
            {isApiError(error) && error.status === 404 ? "This member does not exist." : error.message}
          </Alert>
        )}
        {isLoading && !data ? (
          <Skeleton h={240} />
        ) : entries.length === 0 ? (
          <Text c="dimmed">Nothing has happened yet.</Text>
        ) : (
          <Timeline bulletSize={26} lineWidth={2} aria-label="Activity">
            {entries.map((entry) => (
              <Timeline.Item key={entry.id} bullet={iconOf(entry.kind)} title={entry.summary}>
                <Entry entry={entry} />
              </Timeline.Item>
            ))}
          </Timeline>
        )}
      </Stack>
    </Container>
  );
}

export { MemberActivityRoute as Component };
