import { Button, Modal, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useState } from "react";
import { api } from "../api";
import { emailAddress, requiredSecret, submitHandler, useZodForm, z } from "../forms";

const schema = z.object({ email: emailAddress(), password: requiredSecret() });

/**
 * "Change login email" (docs/access-control.md "Whose account it is"), the same on both sites:
 * the new address and the password; a link goes to the new address and nothing changes until it
 * is used. Only the person does this: staff never change someone's login email.
 */
export function ChangeLoginEmail({ current }: { current: string }) {
  const [opened, modal] = useDisclosure(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useZodForm({ schema, initialValues: { email: "", password: "" } });
  const submit = submitHandler(form, async (values) => {
    const result = await api.post<{ sent_to: string }>("/api/me/email", values);
    setSentTo(result.sent_to);
    form.reset();
  });
  return (
    <>
      <Button variant="subtle" size="compact-sm" onClick={modal.open}>
        Change login email
      </Button>
      <Modal
        opened={opened}
        onClose={() => {
          modal.close();
          setSentTo(null);
        }}
        title="Change your login email"
      >
        {sentTo ? (
          <Text>
            We emailed a link to <b>{sentTo}</b>. Your login email changes when you open it (within 24 hours);
            until then you keep signing in with {current}.
          </Text>
        ) : (
          <form noValidate onSubmit={submit} aria-label="Change your login email">
            <Stack gap="md">
              <Text size="sm">You sign in with {current} now.</Text>
              <TextInput
                label="New email"
                type="email"
                autoComplete="email"
                withAsterisk
                key={form.key("email")}
                {...form.getInputProps("email")}
              />
              <PasswordInput
                label="Your password"
                autoComplete="current-password"
                withAsterisk
                key={form.key("password")}
                {...form.getInputProps("password")}
              />
              <Button type="submit" loading={form.submitting}>
                Send the confirmation link
              </Button>
            </Stack>
          </form>
        )}
      </Modal>
    </>
  );
}
