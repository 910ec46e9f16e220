import { errorMessage } from "@gym/web/api";
import { submitHandler, useZodForm } from "@gym/web/forms";
import { FormError } from "@gym/web/ui";
import { Anchor, Button, Group, PasswordInput, Stack, TextInput } from "@mantine/core";
import { IconLock, IconMail } from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router-dom";
import { type LoginInput, type LoginResult, loginSchema } from "../api/login";

export interface LoginFormProps {
  onSubmit: (values: LoginInput) => Promise<LoginResult>;
  onSuccess: (result: LoginResult) => void;
}

export function LoginForm({ onSubmit, onSuccess }: LoginFormProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useZodForm({ schema: loginSchema, initialValues: { email: "", password: "" } });

  const handleSubmit = submitHandler(
    form,
    async (values) => {
      setFailure(null);
      onSuccess(await onSubmit(values));
    },
    { onError: (error) => setFailure(errorMessage(error)) },
  );

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
          autoFocus
          key={form.key("email")}
          {...form.getInputProps("email")}
        />
        <Stack gap={6}>
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            leftSection={<IconLock size={16} />}
            withAsterisk
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
