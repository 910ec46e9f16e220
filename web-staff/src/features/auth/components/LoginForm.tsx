import { errorMessage } from "@gym/web/api";
import { submitHandler, useZodForm } from "@gym/web/forms";
import { FormError } from "@gym/web/ui";
import { Anchor, Button, Group, PasswordInput, Stack, TextInput } from "@mantine/core";
import { IconLock, IconMail } from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router-dom";
import { type LoginInput, loginSchema } from "../api/login";

export interface LoginFormProps {
  /** Signs in; resolves when the password was accepted. */
  onSubmit: (values: LoginInput) => Promise<void>;
  /** Pre-filled email (e.g. after setting a password). */
  initialEmail?: string;
}

export function LoginForm({ onSubmit, initialEmail = "" }: LoginFormProps) {
  const [failure, setFailure] = useState<string | null>(null);
  // Checked on submit only: a blur check of the focused, still-empty email would push the links
  // below it away from the pointer mid-click.
  const form = useZodForm({
    schema: loginSchema,
    initialValues: { email: initialEmail, password: "" },
    validateInputOnBlur: false,
  });

  // The refusal ("These credentials do not match our records.", or too many attempts) is about
  // the pair, not the email alone: it is shown above the form rather than on a field.
  const handleSubmit = submitHandler(form, async (values) => {
    setFailure(null);
    try {
      await onSubmit(values);
    } catch (error) {
      setFailure(errorMessage(error));
    }
  });

  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Sign in">
      <Stack gap="md">
        {failure && <FormError title="Could not sign you in">{failure}</FormError>}
        <TextInput
          label="Email"
          type="email"
          autoComplete="username"
          inputMode="email"
          placeholder="you@yourgym.co.nz"
          leftSection={<IconMail size={16} />}
          withAsterisk
          autoFocus={!initialEmail}
          key={form.key("email")}
          {...form.getInputProps("email")}
        />
        <Stack gap={6}>
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            leftSection={<IconLock size={16} />}
            withAsterisk
            autoFocus={Boolean(initialEmail)}
            key={form.key("password")}
            {...form.getInputProps("password")}
          />
          <Group justify="flex-end">
            <Anchor component={Link} to="/forgot-password" size="sm">
              Forgot password?
            </Anchor>
          </Group>
        </Stack>
        <Button type="submit" fullWidth size="md" loading={form.submitting}>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
