import { useAuth } from "@gym/web/auth";
import { formatDate } from "@gym/web/format";
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Container,
  Group,
  Modal,
  Skeleton,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { useDisclosure, useDocumentTitle } from "@mantine/hooks";
import { IconAlertCircle, IconUserPlus } from "@tabler/icons-react";
import { DataTable } from "mantine-datatable";
import { Link, useNavigate } from "react-router-dom";
import { gymRoleLabels, roleLabels, useStaffList } from "../api/staff";
import { InviteForm } from "../components/InviteForm";

/** /staff (staff.index): organisation admins see and invite the organisation's staff. */
export function StaffListRoute() {
  useDocumentTitle("Staff");
  const { user } = useAuth();
  const navigate = useNavigate();
  const organisationId = user?.current_organisation?.id;
  const { data, error, isLoading, mutate } = useStaffList(organisationId);
  const [inviting, invite] = useDisclosure(false);
  if (!user || !organisationId) return null;
  return (
    <Container size="xl" py="lg">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end">
          <Stack gap={4}>
            <Title order={1} fz="h2">
              Staff
            </Title>
            <Text c="dimmed" size="sm">
              Organisation admins, gym admins and personal trainers.
            </Text>
          </Stack>
          <Button leftSection={<IconUserPlus size={16} />} onClick={invite.open}>
            Invite staff
          </Button>
        </Group>
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not load staff">
            {error.message}
          </Alert>
        )}
        {isLoading && !data ? (
          <Skeleton h={240} />
        ) : (
          <DataTable
            withTableBorder
            borderRadius="md"
            highlightOnHover
            records={data ?? []}
            idAccessor="id"
            noRecordsText="No staff yet"
            onRowClick={({ record }) => navigate(`/staff/${record.id}`)}
            columns={[
              {
                accessor: "name",
                title: "Name",
                render: (s) => (
                  <Stack gap={0}>
                    <Anchor component={Link} to={`/staff/${s.id}`} fw={600} size="sm">
                      {s.name}
                    </Anchor>
                    <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                      {s.email}
                    </Text>
                    {/* On a phone the role and gyms are folded in here (no sideways scrolling). */}
                    <Text size="xs" hiddenFrom="sm">
                      {roleLabels[s.role]} · {gymsOf(s)}
                    </Text>
                  </Stack>
                ),
              },
              {
                accessor: "role",
                title: "Role",
                visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
                render: (s) => roleLabels[s.role],
              },
              {
                accessor: "gyms",
                title: "Gyms",
                visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
                render: gymsOf,
              },
              {
                accessor: "pending_invite",
                title: "Status",
                render: (s) =>
                  s.pending_invite ? (
                    <Badge color="yellow" variant="light">
                      Invitation pending
                    </Badge>
                  ) : (
                    <Badge color="green" variant="light">
                      Active
                    </Badge>
                  ),
              },
              {
                accessor: "created_at",
                title: "Since",
                visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.md})`,
                render: (s) => formatDate(s.created_at),
              },
            ]}
          />
        )}
      </Stack>
      <Modal opened={inviting} onClose={invite.close} title="Invite staff">
        <InviteForm
          organisationId={organisationId}
          gyms={user.gyms.map((g) => ({ id: g.id, name: g.name }))}
          onCancel={invite.close}
          onInvited={() => {
            invite.close();
            void mutate();
          }}
        />
      </Modal>
    </Container>
  );
}

export { StaffListRoute as Component };

function gymsOf(s: {
  role: keyof typeof roleLabels;
  gyms: { name: string; role: keyof typeof gymRoleLabels }[];
}) {
  return s.role === "admin"
    ? "Every gym"
    : s.gyms.map((g) => `${g.name} (${gymRoleLabels[g.role]})`).join(", ");
}
