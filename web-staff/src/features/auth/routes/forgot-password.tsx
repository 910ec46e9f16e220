import { submitHandler, useZodForm } from "@gym/web/forms";
import { Alert, Anchor, Button, Stack, Text, TextInput } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconArrowLeft, IconMail, IconMailCheck } from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router-dom";
import { forgotPassword, forgotPasswordSchema } from "../api/passwords";
import { AuthLayout } from "../components/AuthLayout";

function BackToSignIn() {
  return (
    <Anchor component={Link} to="/login" size="sm">
      <IconArrowLeft size={14} style={{ verticalAlign: "-2px" }} /> Back to sign in
    </Anchor>
  );
}

/**
 * Asks for a reset link. The answer is the same whether or not the email has an account, so
 * the page never reveals who is registered.
 */
export function ForgotPasswordRoute() {
  useDocumentTitle("Forgot password · Gym back office");
  const [sent, setSent] = useState<{ email: string; message: string } | null>(null);
  // Checked on submit only (see LoginForm): the field is focused on arrival.
  const form = useZodForm({
    schema: forgotPasswordSchema,
    initialValues: { email: "" },
    validateInputOnBlur: false,
  });
  const handleSubmit = submitHandler(
    form,
    async ({ email }) => setSent({ email, message: await forgotPassword(email) }),
    { errorSummary: "Could not send the link" },
  );

  if (sent) {
    return (
      <AuthLayout title="Check your email" description="The link works once, for 60 minutes.">
        <Stack gap="md">
          <Alert color="teal" icon={<IconMailCheck size={18} />} role="status">
            {sent.message}
          </Alert>
          <Text size="sm" c="dimmed">
            Sent to <b>{sent.email}</b>. Nothing arrived after a few minutes? Check your spam folder, or{" "}
            <Anchor component="button" type="button" size="sm" onClick={() => setSent(null)}>
              try again
            </Anchor>
            .
          </Text>
          <BackToSignIn />
        </Stack>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Forgot your password?"
      description="Enter the email you sign in with and we'll send you a link to choose a new password."
    >
      <form noValidate onSubmit={handleSubmit} aria-label="Request a password reset link">
        <Stack gap="md">
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
          <Button type="submit" fullWidth size="md" loading={form.submitting}>
            Email me a reset link
          </Button>
          <BackToSignIn />
        </Stack>
      </form>
    </AuthLayout>
  );
}

export { ForgotPasswordRoute as Component };
