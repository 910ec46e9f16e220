import { errorMessage, isApiError } from "@gym/web/api";
import { submitHandler, useZodForm } from "@gym/web/forms";
import { toastApiError } from "@gym/web/toast";
import { PageLoader } from "@gym/web/ui";
import { Alert, Button, Group, PasswordInput, Stack, Text, ThemeIcon } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconAlertCircle, IconLinkOff, IconLock } from "@tabler/icons-react";
import { useCallback, useEffect, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import {
  type LinkCheck,
  newPasswordSchema,
  PASSWORD_HINT,
  resetPassword,
  validateLink,
} from "../api/passwords";
import { AuthLayout } from "../components/AuthLayout";

type Mode = "reset" | "invite";

const COPY: Record<Mode, { title: string; pageTitle: string; submit: string }> = {
  reset: { title: "Choose a new password", pageTitle: "Reset password", submit: "Save new password" },
  invite: { title: "Set your password", pageTitle: "Set your password", submit: "Set password and continue" },
};

type LinkState =
  | { status: "checking" }
  | { status: "valid"; link: LinkCheck }
  | { status: "dead" }
  | { status: "unreachable"; message: string };

/** The state for a link that expired, was used already, or never existed. */
export function DeadLink({ mode }: { mode: Mode }) {
  return (
    <AuthLayout title="This link has expired or was already used" description={undefined}>
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon size={40} radius="xl" variant="light" color="orange" aria-hidden>
            <IconLinkOff size={22} />
          </ThemeIcon>
          <Text size="sm">
            {mode === "invite"
              ? "Invitation links work once, for 7 days. Request a new link below, or ask your gym's admin to invite you again."
              : "Password links work once, for 60 minutes. Request a new one and use the newest email."}
          </Text>
        </Group>
        <Button component={Link} to="/forgot-password" fullWidth size="md">
          Request a new link
        </Button>
        <Button component={Link} to="/login" variant="subtle" fullWidth>
          Back to sign in
        </Button>
      </Stack>
    </AuthLayout>
  );
}

function NewPasswordForm({ token, link, mode }: { token: string; link: LinkCheck; mode: Mode }) {
  const navigate = useNavigate();
  const form = useZodForm({
    schema: newPasswordSchema,
    initialValues: { password: "", password_confirmation: "" },
  });
  const [dead, setDead] = useState(false);

  const handleSubmit = submitHandler(
    form,
    async (values) => {
      const result = await resetPassword(token, values);
      const email = encodeURIComponent(result.email || link.email || "");
      if (link.purpose === "invite") {
        navigate(`/welcome?email=${email}`, { replace: true });
      } else {
        navigate(`/login?email=${email}`, { replace: true, state: { notice: result.message } });
      }
    },
    {
      onError: (error) => {
        if (isApiError(error) && error.errors.token) setDead(true);
        else toastApiError(error, "Your password was not saved");
      },
    },
  );

  if (dead) return <DeadLink mode={mode} />;

  const copy = COPY[mode];
  return (
    <AuthLayout
      title={copy.title}
      description={
        <>
          {link.name && mode === "invite" ? `Welcome, ${link.name}. ` : null}
          {link.email ? (
            <>
              For <b>{link.email}</b>.
            </>
          ) : null}
        </>
      }
    >
      <form noValidate onSubmit={handleSubmit} aria-label={copy.title}>
        <Stack gap="md">
          {/* Lets password managers store the new password against the right account. */}
          <input
            type="email"
            name="username"
            autoComplete="username"
            value={link.email ?? ""}
            readOnly
            hidden
          />
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            description={PASSWORD_HINT}
            leftSection={<IconLock size={16} />}
            withAsterisk
            autoFocus
            key={form.key("password")}
            {...form.getInputProps("password")}
          />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            leftSection={<IconLock size={16} />}
            withAsterisk
            key={form.key("password_confirmation")}
            {...form.getInputProps("password_confirmation")}
          />
          <Button type="submit" fullWidth size="md" loading={form.submitting}>
            {copy.submit}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}

/**
 * Choosing a password from an emailed link: a reset link (/reset-password) or an invitation
 * (/set-password). The link is checked first; a dead one says so and offers a new one.
 */
function PasswordLinkPage({ mode }: { mode: Mode }) {
  useDocumentTitle(`${COPY[mode].pageTitle} · Gym back office`);
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [state, setState] = useState<LinkState>({ status: "checking" });

  const check = useCallback(async () => {
    if (!token) {
      setState({ status: "dead" });
      return;
    }
    setState({ status: "checking" });
    try {
      const link = await validateLink(token);
      setState(link.valid ? { status: "valid", link } : { status: "dead" });
    } catch (error) {
      if (isApiError(error) && error.status === 422) setState({ status: "dead" });
      else setState({ status: "unreachable", message: errorMessage(error) });
    }
  }, [token]);

  useEffect(() => {
    void check();
  }, [check]);

  if (state.status === "checking") return <PageLoader label="Checking your link" />;
  if (state.status === "dead") return <DeadLink mode={mode} />;
  if (state.status === "unreachable") {
    return (
      <AuthLayout title={COPY[mode].pageTitle}>
        <Stack gap="md">
          <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not check your link">
            {state.message}
          </Alert>
          <Button onClick={() => void check()}>Try again</Button>
        </Stack>
      </AuthLayout>
    );
  }
  return <NewPasswordForm token={token} link={state.link} mode={mode} />;
}

export function ResetPasswordRoute() {
  return <PasswordLinkPage mode="reset" />;
}

export function SetPasswordRoute() {
  return <PasswordLinkPage mode="invite" />;
}
