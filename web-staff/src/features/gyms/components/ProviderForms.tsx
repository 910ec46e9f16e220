import { requiredText, submitHandler, useZodForm, z } from "@gym/web/forms";
import { toast } from "@gym/web/toast";
import { Button, Group, PasswordInput, SimpleGrid, TextInput } from "@mantine/core";
import { type Gym, type MaskedSecret, setAkahuConfig, setBranchConfig } from "../api/gyms";

const secretPlaceholder = (secret: MaskedSecret) =>
  secret.set ? `${secret.masked} (leave empty to keep)` : undefined;
/** A secret is required only until one is stored. */
const secretField = (secret: MaskedSecret) => (secret.set ? z.string().trim() : requiredText());

/** The gym's Branch app (links into the member app). The key and secret are checked with Branch. */
export function BranchForm({ gym, onSaved }: { gym: Gym; onSaved: (gym: Gym) => void }) {
  const form = useZodForm({
    schema: z.object({
      branch_app_id: requiredText(),
      branch_key: requiredText(),
      branch_secret: secretField(gym.branch_secret),
    }),
    initialValues: {
      branch_app_id: gym.branch_app_id ?? "",
      branch_key: gym.branch_key ?? "",
      branch_secret: "",
    },
  });
  const handleSubmit = submitHandler(
    form,
    async (values) => {
      onSaved(await setBranchConfig(gym.id, values));
      form.setFieldValue("branch_secret", "");
      toast.success("Branch settings saved");
    },
    { errorSummary: "The Branch settings were not saved" },
  );
  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Branch app">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput
          label="Branch app id"
          withAsterisk
          key={form.key("branch_app_id")}
          {...form.getInputProps("branch_app_id")}
        />
        <TextInput
          label="Branch key"
          placeholder="key_live_…"
          withAsterisk
          key={form.key("branch_key")}
          {...form.getInputProps("branch_key")}
        />
        <PasswordInput
          label="Branch secret"
          withAsterisk={!gym.branch_secret.set}
          placeholder={secretPlaceholder(gym.branch_secret)}
          autoComplete="new-password"
          key={form.key("branch_secret")}
          {...form.getInputProps("branch_secret")}
        />
      </SimpleGrid>
      <Group justify="flex-end" mt="md">
        <Button type="submit" loading={form.submitting}>
          Save Branch settings
        </Button>
      </Group>
    </form>
  );
}

/** The gym's own Akahu app, used when its members connect their bank. */
export function AkahuForm({ gym, onSaved }: { gym: Gym; onSaved: (gym: Gym) => void }) {
  const form = useZodForm({
    schema: z.object({
      akahu_app_token: requiredText(),
      akahu_app_secret: secretField(gym.akahu_app_secret),
    }),
    initialValues: { akahu_app_token: gym.akahu_app_token ?? "", akahu_app_secret: "" },
  });
  const handleSubmit = submitHandler(
    form,
    async (values) => {
      onSaved(await setAkahuConfig(gym.id, values));
      form.setFieldValue("akahu_app_secret", "");
      toast.success("Bank-feed settings saved");
    },
    { errorSummary: "The bank-feed settings were not saved" },
  );
  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Bank feed">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Akahu app token"
          placeholder="app_token_…"
          withAsterisk
          key={form.key("akahu_app_token")}
          {...form.getInputProps("akahu_app_token")}
        />
        <PasswordInput
          label="Akahu app secret"
          withAsterisk={!gym.akahu_app_secret.set}
          placeholder={secretPlaceholder(gym.akahu_app_secret)}
          autoComplete="new-password"
          key={form.key("akahu_app_secret")}
          {...form.getInputProps("akahu_app_secret")}
        />
      </SimpleGrid>
      <Group justify="flex-end" mt="md">
        <Button type="submit" loading={form.submitting}>
          Save bank-feed settings
        </Button>
      </Group>
    </form>
  );
}
