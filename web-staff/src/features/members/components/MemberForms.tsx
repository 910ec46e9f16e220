import { memberUpdateInput } from "@gym/core/contract/member";
import { submitHandler, useZodForm } from "@gym/web/forms";
import { toast } from "@gym/web/toast";
import { Button, Group, SimpleGrid, Stack, TagsInput, Textarea, TextInput, Title } from "@mantine/core";
import { type Member, updateMember } from "../api/members";

const notesSchema = memberUpdateInput.pick({ notes: true, tags: true });

/** Notes and tags (staff only; each save is logged in the member's activity). */
export function NotesTagsForm({ member, onSaved }: { member: Member; onSaved: (m: Member) => void }) {
  const form = useZodForm({
    schema: notesSchema,
    initialValues: { notes: member.notes ?? "", tags: member.tags },
  });
  const handleSubmit = submitHandler(
    form,
    async (values) => {
      const saved = await updateMember(member.id, values);
      onSaved(saved);
      form.resetDirty({ notes: saved.notes ?? "", tags: saved.tags });
      toast.success("Notes saved");
    },
    { errorSummary: "The notes were not saved" },
  );
  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Notes and tags">
      <Stack gap="sm">
        <Textarea
          label="Notes"
          autosize
          minRows={3}
          maxRows={10}
          key={form.key("notes")}
          {...form.getInputProps("notes")}
        />
        <TagsInput
          label="Tags"
          placeholder="Type a tag and press Enter"
          clearable
          key={form.key("tags")}
          {...form.getInputProps("tags")}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={form.submitting}>
            Save notes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const detailsSchema = memberUpdateInput.pick({
  name: true,
  email: true,
  mobile_number: true,
  dob: true,
  address: true,
  suburb: true,
  city: true,
  post_code: true,
  emergency_contact: true,
});

/** Profile, contact, address and emergency contact. */
export function DetailsForm({
  member,
  onSaved,
  onCancel,
}: {
  member: Member;
  onSaved: (m: Member) => void;
  onCancel: () => void;
}) {
  const form = useZodForm({
    schema: detailsSchema,
    initialValues: {
      name: member.name,
      email: member.email,
      mobile_number: member.mobile_number ?? "",
      dob: member.dob ?? "",
      address: member.address ?? "",
      suburb: member.suburb ?? "",
      city: member.city ?? "",
      post_code: member.post_code ?? "",
      emergency_contact: {
        name: member.emergency_contact.name ?? "",
        email: member.emergency_contact.email ?? "",
        mobile_number: member.emergency_contact.mobile_number ?? "",
        relationship: member.emergency_contact.relationship ?? "",
      },
    },
  });
  const handleSubmit = submitHandler(
    form,
    async (values) => {
      const saved = await updateMember(member.id, { ...values, dob: values.dob || null });
      onSaved(saved);
      toast.success("Member details saved");
    },
    { errorSummary: "The details were not saved" },
  );
  const field = (path: string, label: string, extra: Record<string, unknown> = {}) => (
    <TextInput label={label} key={form.key(path)} {...form.getInputProps(path)} {...extra} />
  );
  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Member details">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {field("name", "Name", { withAsterisk: true })}
          {field("email", "Email", { withAsterisk: true, type: "email" })}
          {field("mobile_number", "Mobile number", { type: "tel" })}
          {field("dob", "Date of birth", { placeholder: "YYYY-MM-DD" })}
          {field("address", "Address")}
          {field("suburb", "Suburb")}
          {field("city", "City")}
          {field("post_code", "Post code")}
        </SimpleGrid>
        <Title order={3} fz="h5">
          Emergency contact
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {field("emergency_contact.name", "Name")}
          {field("emergency_contact.relationship", "Relationship")}
          {field("emergency_contact.mobile_number", "Mobile number", { type: "tel" })}
          {field("emergency_contact.email", "Email", { type: "email" })}
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            Save details
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
