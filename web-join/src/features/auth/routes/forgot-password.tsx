import { submitHandler, useZodForm } from "@gym/web/forms";
import { forgotPassword, forgotPasswordSchema } from "@gym/web/passwords";
import { Alert, Anchor, Button, Paper, Stack, Text, TextInput } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { useState } from "react";
import { Link } from "react-router-dom";
import { JoinLayout } from "../../../components/JoinLayout";
import { signInPath, useLinkedGym } from "../linked-gym";

/**
 * `/forgot-password` on the join site (from the sign-in page's "Forgot password?"): asks for a
 * reset link, which opens the join site's `/reset-password` for this gym. The answer is the same
 * whether or not the email has an account.
 */
export function ForgotPasswordRoute() {
  useDocumentTitle("Forgot your password? · Join");
  const { uuid, gym } = useLinkedGym();
  const [sent, setSent] = useState<{ email: string; message: string } | null>(null);
  const form = useZodForm({
    schema: forgotPasswordSchema,
    initialValues: { email: "" },
    validateInputOnBlur: false,
  });
  const handleSubmit = submitHandler(
    form,
    async ({ email }) =>
      setSent({ email, message: await forgotPassword(email, { site: "join", gym: uuid }) }),
    { errorSummary: "Could not send the link" },
  );
  const back = (
    <Anchor component={Link} to={signInPath({ gym: uuid })}>
      Back to sign in
    </Anchor>
  );

  if (sent) {
    return (
      <JoinLayout gym={gym} title="Check your email" description="The link works once, for 60 minutes.">
        <Paper withBorder p={{ base: "md", xs: "lg" }} shadow="xs">
          <Stack gap="md">
            <Alert color="teal" role="status">
              {sent.message}
            </Alert>
            <Text size="sm" c="gray.7">
              Sent to <b>{sent.email}</b>. Nothing after a few minutes? Check your spam folder, or{" "}
              <Anchor component="button" type="button" size="sm" onClick={() => setSent(null)}>
                try again
              </Anchor>
              .
            </Text>
            {back}
          </Stack>
        </Paper>
      </JoinLayout>
    );
  }
  return (
    <JoinLayout
      gym={gym}
      title="Forgot your password?"
      description="Enter the email you joined with and we'll send you a link to choose a new password."
    >
      <Paper withBorder p={{ base: "md", xs: "lg" }} shadow="xs">
        <form noValidate onSubmit={handleSubmit} aria-label="Request a password reset link">
          <Stack gap="md">
            <TextInput
              label="Email"
              type="email"
              inputMode="email"
              autoComplete="email"
              autoCapitalize="none"
              spellCheck={false}
              withAsterisk
              key={form.key("email")}
              {...form.getInputProps("email")}
            />
            <Button type="submit" size="lg" fullWidth loading={form.submitting}>
              Email me a link
            </Button>
            {back}
          </Stack>
        </form>
      </Paper>
    </JoinLayout>
  );
}

export { ForgotPasswordRoute as Component };
