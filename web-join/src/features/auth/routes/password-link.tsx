import { errorMessage, isApiError } from "@gym/web/api";
import { submitHandler, useZodForm } from "@gym/web/forms";
import {
  type LinkCheck,
  newPasswordSchema,
  PASSWORD_HINT,
  resetPassword,
  validateLink,
} from "@gym/web/passwords";
import { toastApiError } from "@gym/web/toast";
import { PageLoader } from "@gym/web/ui";
import { Alert, Button, Paper, PasswordInput, Stack, Text } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { useCallback, useEffect, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { JoinLayout } from "../../../components/JoinLayout";
import { signInPath, useLinkedGym } from "../linked-gym";

type Mode = "reset" | "invite";

/** The members' words for each link: a reset, or the pay-in-full member's invitation to finish joining. */
const COPY: Record<Mode, { title: string; submit: string; done: string }> = {
  reset: { title: "Choose a new password", submit: "Save new password", done: "password-reset" },
  invite: { title: "Set your password", submit: "Set password", done: "password-set" },
};

/**
 * `/reset-password` and `/set-password` on the join site: where a member's password emails lead
 * (a reset asked for on the join site; a pay-in-full member's invitation). The link is checked,
 * the new password set, then the member signs in on the join site for their gym.
 */
export function PasswordLinkRoute() {
  const { pathname, search } = useLocation();
  const mode: Mode = pathname === "/set-password" ? "invite" : "reset";
  const copy = COPY[mode];
  useDocumentTitle(`${copy.title} · Join`);
  const navigate = useNavigate();
  const { uuid, gym } = useLinkedGym();
  const token = new URLSearchParams(search).get("token") ?? "";
  const [link, setLink] = useState<LinkCheck | "checking" | "dead" | { failed: string }>("checking");
  const check = useCallback(async () => {
    if (!token) return setLink("dead");
    setLink("checking");
    try {
      const answer = await validateLink(token);
      setLink(answer.valid ? answer : "dead");
    } catch (error) {
      setLink(isApiError(error) && error.status === 422 ? "dead" : { failed: errorMessage(error) });
    }
  }, [token]);
  useEffect(() => {
    void check();
  }, [check]);
  const form = useZodForm({
    schema: newPasswordSchema,
    initialValues: { password: "", password_confirmation: "" },
  });
  const handleSubmit = submitHandler(
    form,
    async (values) => {
      const result = await resetPassword(token, values);
      const email = result.email || (typeof link === "object" && "email" in link ? link.email : null);
      navigate(signInPath({ gym: uuid, email, notice: copy.done }), { replace: true });
    },
    {
      onError: (error) => {
        if (isApiError(error) && error.errors.token) setLink("dead");
        else toastApiError(error, "Your password was not saved");
      },
    },
  );

  if (link === "checking") return <PageLoader label="Checking your link" />;
  if (link === "dead") {
    return (
      <JoinLayout gym={gym} title="This link has expired or was already used">
        <Paper withBorder p={{ base: "md", xs: "lg" }} shadow="xs">
          <Stack gap="md">
            <Text>
              {mode === "invite"
                ? "Links to set your password work once, for 7 days. Ask for a new one below, or ask the gym to send it again."
                : "Password links work once, for 60 minutes. Ask for a new one and use the newest email."}
            </Text>
            <Button component={Link} to={`/forgot-password${uuid ? `?gym=${uuid}` : ""}`} size="lg" fullWidth>
              Email me a new link
            </Button>
          </Stack>
        </Paper>
      </JoinLayout>
    );
  }
  if ("failed" in link) {
    return (
      <JoinLayout gym={gym} title={copy.title}>
        <Alert color="red" title="We could not check your link">
          {link.failed}
        </Alert>
        <Button onClick={() => void check()}>Try again</Button>
      </JoinLayout>
    );
  }
  return (
    <JoinLayout
      gym={gym}
      title={copy.title}
      description={
        <>
          {mode === "invite" && link.name ? `Welcome, ${link.name.split(" ")[0]}. ` : null}
          {mode === "invite" ? "Set a password to see your membership. " : null}
          {link.email ? (
            <>
              For <b>{link.email}</b>.
            </>
          ) : null}
        </>
      }
    >
      <Paper withBorder p={{ base: "md", xs: "lg" }} shadow="xs">
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
              withAsterisk
              key={form.key("password")}
              {...form.getInputProps("password")}
            />
            <PasswordInput
              label="Confirm new password"
              autoComplete="new-password"
              withAsterisk
              key={form.key("password_confirmation")}
              {...form.getInputProps("password_confirmation")}
            />
            <Button type="submit" size="lg" fullWidth loading={form.submitting}>
              {copy.submit}
            </Button>
          </Stack>
        </form>
      </Paper>
    </JoinLayout>
  );
}

export { PasswordLinkRoute as Component };
