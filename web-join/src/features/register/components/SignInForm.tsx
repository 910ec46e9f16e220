import { errorMessage, isApiError } from "@gym/web/api";
import { useAuth } from "@gym/web/auth";
import { useAction } from "@gym/web/forms";
import { FormError } from "@gym/web/ui";
import { Anchor, Button, Paper, PasswordInput, Stack, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { Link } from "react-router-dom";

/**
 * Signing in on the join site (an account that already exists, or a member coming back after
 * their session ended): email and password, then the emailed code on /verification-code.
 */
export function SignInForm({
  email: initialEmail = "",
  forgotHref,
  onSignedIn,
}: {
  email?: string;
  /** The join site's "Forgot password?" page (for this gym). */
  forgotHref: string;
  onSignedIn: () => void;
}) {
  const { login } = useAuth();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<{ email?: string; password?: string; form?: string }>({});
  // Signed in, the page moves on (onSignedIn): busy until it has.
  const signingIn = useAction(
    async (credentials: { email: string; password: string }) => {
      await login(credentials);
      onSignedIn();
    },
    {
      onError: (failure) =>
        setErrors(
          isApiError(failure) && failure.errors.email
            ? { email: failure.errors.email[0] }
            : { form: errorMessage(failure) },
        ),
      leavesPage: true,
    },
  );
  const busy = signingIn.running;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = {
      email: email.trim() ? undefined : "Value is required",
      password: password ? undefined : "Value is required",
    };
    setErrors(missing);
    if (missing.email || missing.password) return;
    void signingIn.run({ email: email.trim(), password });
  };

  return (
    <Paper withBorder p={{ base: "md", xs: "lg" }} shadow="xs">
      <form noValidate onSubmit={submit} aria-label="Sign in">
        <Stack gap="md">
          {errors.form && <FormError title="We could not sign you in">{errors.form}</FormError>}
          <TextInput
            label="Email"
            type="email"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            withAsterisk
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={errors.email}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            withAsterisk
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={errors.password}
          />
          <Anchor component={Link} to={forgotHref} size="sm" w="fit-content">
            Forgot password?
          </Anchor>
          <Button type="submit" size="lg" fullWidth loading={busy}>
            Sign in
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
