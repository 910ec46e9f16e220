import { staffInviteInput } from "@gym/core/contract/staff";
import { submitHandler, useZodForm } from "@gym/web/forms";
import { toast } from "@gym/web/toast";
import { Button, Group, Select, Stack, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { gymRoleLabels, inviteStaff, roleLabels, type StaffMember, staffExists } from "../api/staff";

/**
 * Invite a staff member (spec 001 §5): email and role required; name required unless the person
 * already has an account (asked with staff-exists when the email is left); with "Per gym" a role
 * for each gym, gyms left without a role are left out of what is sent.
 */
export function InviteForm({
  organisationId,
  gyms,
  onInvited,
  onCancel,
}: {
  organisationId: string;
  gyms: { id: string; name: string }[];
  onInvited: (staff: StaffMember) => void;
  onCancel: () => void;
}) {
  const [existing, setExisting] = useState<string | null>(null);
  const [perGym, setPerGym] = useState<Record<string, string | null>>({});
  const form = useZodForm({
    schema: staffInviteInput,
    initialValues: { email: "", name: "", role: "" as never, gyms: [] as { gym_id: string; role: never }[] },
  });
  const role = form.getValues().role as string;
  form.watch("role", () => setPerGym((p) => ({ ...p })));
  const handleSubmit = submitHandler(
    form,
    async (values) => {
      const saved = await inviteStaff(organisationId, { ...values, name: values.name || undefined });
      toast.success(
        saved.pending_invite ? `Invitation sent to ${saved.email}` : `${saved.name} added to staff`,
      );
      onInvited(saved);
    },
    { errorSummary: "The invitation was not sent" },
  );
  const setGymRole = (gymId: string, value: string | null) => {
    const next = { ...perGym, [gymId]: value };
    setPerGym(next);
    form.setFieldValue(
      "gyms",
      Object.entries(next)
        .filter(([, r]) => r)
        .map(([gym_id, r]) => ({ gym_id, role: r as never })),
    );
  };
  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Invite staff">
      <Stack gap="md">
        <TextInput
          label="Email"
          type="email"
          withAsterisk
          key={form.key("email")}
          {...form.getInputProps("email")}
          onBlur={async (event) => {
            const email = event.currentTarget.value.trim();
            if (!email.includes("@")) return setExisting(null);
            const answer = await staffExists(organisationId, email).catch(() => null);
            setExisting(answer?.exists ? answer.name : null);
          }}
        />
        {existing ? (
          <Text size="sm" c="dimmed">
            {existing} already has an account: no name needed.
          </Text>
        ) : (
          <TextInput label="Name" withAsterisk key={form.key("name")} {...form.getInputProps("name")} />
        )}
        <Select
          label="Role"
          withAsterisk
          data={Object.entries(roleLabels).map(([value, label]) => ({ value, label }))}
          key={form.key("role")}
          {...form.getInputProps("role")}
        />
        {role === "per_gym" && (
          <Stack gap="xs">
            {gyms.map((gym) => (
              <Select
                key={gym.id}
                label={gym.name}
                placeholder="No role"
                clearable
                data={Object.entries(gymRoleLabels).map(([value, label]) => ({ value, label }))}
                value={perGym[gym.id] ?? null}
                onChange={(value) => setGymRole(gym.id, value)}
              />
            ))}
            {form.errors.gyms && (
              <Text size="sm" c="red">
                {form.errors.gyms}
              </Text>
            )}
          </Stack>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            Send invitation
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
