import { errorMessage, isApiError } from "@gym/web/api";
import { useAuth } from "@gym/web/auth";
import { toast } from "@gym/web/toast";
import { Alert, Anchor, Button, Center, Group, PinInput, Stack, Text } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconAlertCircle, IconMailForward } from "@tabler/icons-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Navigate, useLocation, useNavigate } from "react-router-dom";
import { CODE_LENGTH } from "../api/login";
import { AuthLayout } from "../components/AuthLayout";

/** The API allows one new code every 30 seconds. */
export const RESEND_COOLDOWN_SECONDS = 30;

function useCountdown(initial: number) {
  const [left, setLeft] = useState(initial);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((value) => value - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return [left, setLeft] as const;
}

/**
 * Sign-in, step two: the six-digit code emailed at sign-in. It is checked as soon as the last
 * digit is typed (or pasted). Wrong, expired and used-up codes say so; a new code can be asked
 * for every 30 seconds. Once signed in, the guest-only guard moves on to `?redirect=` or the
 * dashboard.
 */
export function TwoFactorRoute() {
  useDocumentTitle("Check your email · Gym back office");
  const { me, validateTwoFactorCode, resendCode, logout, getCurrentUser } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const email = (location.state as { email?: string } | null)?.email;
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [resending, setResending] = useState(false);
  const [cooldown, setCooldown] = useCountdown(RESEND_COOLDOWN_SECONDS);
  const pinRef = useRef<HTMLInputElement>(null);
  const boxesRef = useRef<HTMLDivElement>(null);
  // Set when the boxes are cleared: the first box takes focus once they are enabled again
  // (focusing while a check is under way does nothing, as the inputs are disabled).
  const [focusFirst, setFocusFirst] = useState(0);
  useEffect(() => {
    if (focusFirst && !verifying) boxesRef.current?.querySelector<HTMLInputElement>("input")?.focus();
  }, [focusFirst, verifying]);

  // No session waiting for a code (it expired, or the page was opened directly): sign in first.
  if (me?.status === "guest") return <Navigate to={`/login${location.search}`} replace />;

  async function verify(value: string) {
    if (verifying) return;
    if (value.length !== CODE_LENGTH) {
      setError(`Enter the ${CODE_LENGTH}-digit code from the email.`);
      return;
    }
    setVerifying(true);
    setError(null);
    try {
      const state = await validateTwoFactorCode(value);
      if (state.status !== "signed_in") setError("We could not finish signing you in. Please try again.");
    } catch (failure) {
      if (isApiError(failure) && failure.status === 401) {
        await getCurrentUser(); // the waiting session ended: back to sign-in
        return;
      }
      setError(
        isApiError(failure) && failure.errors.code?.[0] ? failure.errors.code[0] : errorMessage(failure),
      );
      setCode("");
      setFocusFirst((n) => n + 1);
    } finally {
      setVerifying(false);
    }
  }

  async function resend() {
    setResending(true);
    try {
      const message = await resendCode();
      setError(null);
      setCode("");
      setCooldown(RESEND_COOLDOWN_SECONDS);
      toast.success(message, { summary: "Code sent" });
      setFocusFirst((n) => n + 1);
    } catch (failure) {
      if (isApiError(failure) && failure.status === 401) {
        await getCurrentUser();
        return;
      }
      setError(errorMessage(failure));
    } finally {
      setResending(false);
    }
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void verify(code);
  };

  return (
    <AuthLayout
      title="Check your email"
      description={
        email ? (
          <>
            We emailed a {CODE_LENGTH}-digit code to <b>{email}</b>. Enter it to finish signing in.
          </>
        ) : (
          `We emailed you a ${CODE_LENGTH}-digit code. Enter it to finish signing in.`
        )
      }
    >
      <form noValidate onSubmit={onSubmit} aria-label="Enter your sign-in code">
        <Stack gap="md">
          <Center ref={boxesRef}>
            <PinInput
              ref={pinRef}
              length={CODE_LENGTH}
              type="number"
              size="lg"
              gap="xs"
              oneTimeCode
              autoFocus
              value={code}
              onChange={(value) => {
                setCode(value);
                if (error) setError(null);
              }}
              onComplete={(value) => void verify(value)}
              error={Boolean(error)}
              disabled={verifying}
              ariaLabel="Sign-in code"
              getInputProps={(index) => ({ "aria-label": `Digit ${index + 1} of the sign-in code` })}
            />
          </Center>
          {error && (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" aria-live="assertive">
              {error}
            </Alert>
          )}
          <Button type="submit" fullWidth size="md" loading={verifying}>
            Verify and sign in
          </Button>
          <Group justify="center" gap={6} wrap="wrap">
            <Text size="sm" c="dimmed">
              Didn't get it?
            </Text>
            <Button
              variant="subtle"
              size="compact-sm"
              leftSection={<IconMailForward size={16} />}
              onClick={() => void resend()}
              disabled={cooldown > 0}
              loading={resending}
            >
              {cooldown > 0 ? `Send a new code in ${cooldown}s` : "Send a new code"}
            </Button>
          </Group>
          <Text size="xs" c="dimmed" ta="center">
            The code works once and expires after 10 minutes. Check your spam folder if it is not there.{" "}
            <Anchor
              component="button"
              type="button"
              size="xs"
              onClick={() => void logout().then(() => navigate("/login", { replace: true }))}
            >
              Use a different account
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}

export { TwoFactorRoute as Component };
