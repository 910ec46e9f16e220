import { errorMessage, isApiError } from "@gym/web/api";
import { safeRedirect, useAuth } from "@gym/web/auth";
import { useAction } from "@gym/web/forms";
import { PageLoader } from "@gym/web/ui";
import { Button, Paper, Stack, Text, TextInput } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { type FormEvent, useState } from "react";
import { Navigate, useNavigate, useSearchParams } from "react-router-dom";
import { JoinLayout, rememberedGym } from "../../../components/JoinLayout";
import { refreshRegistration, resendCode, useRegistration, verifyEmail } from "../api/registration";
import { stepPath } from "../steps";

/**
 * `/verification-code`: the six-digit code emailed at registration (or at sign-in, with
 * `twoFactorAuth=true`). `POST /api/email/verify`; resend with `POST /api/email/resend`.
 */
export function VerificationCodeRoute() {
  useDocumentTitle("Verify your email · Join");
  const { me, getCurrentUser } = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const member = me?.status === "signed_in" && !me.user.is_staff;
  const { data: state } = useRegistration(member);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const verify = useAction(
    async (typed: string) => {
      await verifyEmail(typed);
      await refreshRegistration();
      const next = await getCurrentUser();
      if (next.status !== "signed_in") navigate("/");
    },
    {
      onError: (failure) =>
        setError(
          isApiError(failure) ? (failure.errors.code?.[0] ?? errorMessage(failure)) : errorMessage(failure),
        ),
    },
  );

  if (!me) return <PageLoader />;
  if (me.status === "guest" || me.status === "failed") return <Navigate to="/" replace />;
  if (member) {
    if (!state) return <PageLoader />;
    const redirect = params.get("redirect");
    return (
      <Navigate to={redirect ? safeRedirect(redirect, stepPath(state.step)) : stepPath(state.step)} replace />
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    if (!code.trim()) {
      setError("Value is required");
      return;
    }
    void verify.run(code.trim());
  };

  const resend = async () => {
    setError(null);
    try {
      setNotice((await resendCode()).message);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  return (
    <JoinLayout
      gym={rememberedGym()}
      title="Verify your email"
      description="Enter the six-digit code we emailed you."
    >
      <Paper withBorder p={{ base: "md", xs: "lg" }} shadow="xs">
        <form noValidate onSubmit={submit} aria-label="Verify your email">
          <Stack gap="md">
            {notice && (
              <Text role="status" c="teal.8">
                {notice}
              </Text>
            )}
            <TextInput
              label="Code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              maxLength={6}
              size="lg"
              styles={{ input: { letterSpacing: "0.3em", fontSize: 24 } }}
              value={code}
              onChange={(event) => {
                setCode(event.currentTarget.value.replace(/\D/g, ""));
                setError(null);
              }}
              error={error}
              withAsterisk
            />
            <Button type="submit" fullWidth size="lg" loading={verify.running}>
              Verify
            </Button>
            <Button variant="subtle" onClick={resend}>
              Send a new code
            </Button>
          </Stack>
        </form>
      </Paper>
    </JoinLayout>
  );
}

export { VerificationCodeRoute as Component };
