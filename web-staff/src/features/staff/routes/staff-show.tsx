import { useAuth } from "@gym/web/auth";
import { formatDate } from "@gym/web/format";
import { useAction } from "@gym/web/forms";
import { toast } from "@gym/web/toast";
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Container,
  Group,
  Modal,
  Stack,
  Switch,
  Text,
  Title,
} from "@mantine/core";
import { useDisclosure, useDocumentTitle } from "@mantine/hooks";
import { IconAlertCircle, IconArrowLeft } from "@tabler/icons-react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { useSWRConfig } from "swr";
import {
  deactivateStaff,
  gymRoleLabels,
  resendInvitation,
  roleLabels,
  setStaffDoorAccess,
  useStaffMember,
} from "../api/staff";

/** /staff/{id} (staff.show): a staff member's roles, door access, invitation and deactivation. */
export function StaffShowRoute() {
  const { id } = useParams();
  const navigate = useNavigate();
  const { data: staff, error, mutate } = useStaffMember(id);
  const { user } = useAuth();
  const { mutate: mutateKey } = useSWRConfig();
  useDocumentTitle(staff?.name ?? "Staff member");
  const [confirming, confirm] = useDisclosure(false);
  // Each change: the call, then its success toast; answers true when it was made.
  const change = useAction(async (action: () => Promise<unknown>, done: string) => {
    await action();
    toast.success(done);
    return true;
  });
  const run = change.run;
  const busy = change.running;
  if (error)
    return (
      <Container size="md" py="lg">
        <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not load this staff member">
          {error.status === 404 ? "This staff member does not exist." : error.message}
        </Alert>
      </Container>
    );
  if (!staff) return null;
  return (
    <Container size="md" py="lg">
      <Stack gap="lg">
        <Anchor component={Link} to="/staff" size="sm">
          <Group gap={4}>
            <IconArrowLeft size={14} /> Staff
          </Group>
        </Anchor>
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            <Group gap="sm">
              <Title order={1} fz="h2">
                {staff.name}
              </Title>
              {staff.pending_invite && (
                <Badge color="yellow" variant="light">
                  Invitation pending
                </Badge>
              )}
            </Group>
            <Text c="dimmed" size="sm">
              {staff.email} · since {formatDate(staff.created_at)}
            </Text>
          </Stack>
          <Group gap="sm">
            {staff.pending_invite && (
              <Button
                variant="default"
                loading={busy}
                onClick={() =>
                  void run(() => resendInvitation(staff.id), `Invitation sent to ${staff.email}`)
                }
              >
                Resend invitation
              </Button>
            )}
            <Button color="red" variant="light" onClick={confirm.open}>
              Deactivate
            </Button>
          </Group>
        </Group>
        <Card withBorder radius="md" padding="lg">
          <Stack gap={6}>
            <Text fw={600}>{roleLabels[staff.role]}</Text>
            {staff.role === "admin" ? (
              <Text size="sm">Every gym of the organisation</Text>
            ) : (
              staff.gyms.map((g) => (
                <Text size="sm" key={g.id}>
                  {g.name}: {gymRoleLabels[g.role]}
                </Text>
              ))
            )}
          </Stack>
        </Card>
        <Card withBorder radius="md" padding="lg">
          <Stack gap="sm">
            <Stack gap={2}>
              <Text fw={600}>Door access</Text>
              <Text size="sm" c="dimmed">
                Staff door access opens the gym's doors (Kisi) whatever their membership. {staff.visits_count}{" "}
                {staff.visits_count === 1 ? "visit" : "visits"} recorded.
              </Text>
            </Stack>
            {(staff.role === "admin" ? (user?.gyms ?? []) : staff.gyms).map((gym) => (
              <Switch
                key={gym.id}
                label={gym.name}
                checked={staff.door_access_gym_ids.includes(gym.id)}
                disabled={busy || Boolean(staff.deleted_at)}
                onChange={(event) => {
                  const enabled = event.currentTarget.checked;
                  void run(
                    () => setStaffDoorAccess(staff.id, gym.id, enabled),
                    enabled ? `Door access given at ${gym.name}` : `Door access removed at ${gym.name}`,
                  ).then(() => mutate());
                }}
              />
            ))}
          </Stack>
        </Card>
      </Stack>
      <Modal opened={confirming} onClose={confirm.close} title={`Deactivate ${staff.name}?`}>
        <Stack>
          <Text size="sm">
            They lose their staff access and are signed out everywhere. A membership they hold stays.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={confirm.close}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={busy}
              onClick={async () => {
                if (await run(() => deactivateStaff(staff.id), `${staff.name} deactivated`)) {
                  confirm.close();
                  void mutate();
                  await mutateKey(`/api/organisations/${user?.current_organisation?.id}/staff`);
                  navigate("/staff");
                }
              }}
            >
              Deactivate
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Container>
  );
}

export { StaffShowRoute as Component };
