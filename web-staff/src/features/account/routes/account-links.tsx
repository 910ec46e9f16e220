/**
 * The pages an account's emails link to (docs/access-control.md "Whose account it is",
 * "Enrolment needs the person"): an invitation to accept or decline, a new login email to confirm,
 * and a login email change to undo. Open to anyone holding the link, signed in or not.
 */
import { errorMessage, isApiError } from "@gym/web/api";
import { useAction } from "@gym/web/forms";
import { PageLoader } from "@gym/web/ui";
import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconAlertCircle, IconCircleCheck } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { AuthLayout } from "../../auth/components/AuthLayout";
import {
  acceptInvitation,
  confirmEmailChange,
  declineInvitation,
  type InvitationPeek,
  peekInvitation,
  undoEmailChange,
} from "../api/account";

const DEAD = "This link has expired or has already been used.";

function useToken() {
  const [params] = useSearchParams();
  return params.get("token") ?? "";
}

function Done({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <AuthLayout title={title}>
      <Stack gap="md">
        <Alert color="green" icon={<IconCircleCheck size={18} />}>
          {children}
        </Alert>
        <Button component={Link} to="/login" fullWidth size="md">
          Sign in
        </Button>
      </Stack>
    </AuthLayout>
  );
}

function Failed({ title, message }: { title: string; message: string }) {
  return (
    <AuthLayout title={title}>
      <Alert color="orange" icon={<IconAlertCircle size={18} />}>
        {message}
      </Alert>
    </AuthLayout>
  );
}

/** `/invitation?token=`: what is offered, by whom; Accept or Decline. Nothing happens before. */
export function InvitationRoute() {
  useDocumentTitle("Your invitation");
  const token = useToken();
  const [peek, setPeek] = useState<InvitationPeek | null>(null);
  const [answer, setAnswer] = useState<"accepted" | "declined" | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    peekInvitation(token)
      .then(setPeek)
      .catch(() => setPeek({ valid: false }));
  }, [token]);
  const onError = (error: unknown) =>
    setFailure(isApiError(error) && error.status === 422 ? DEAD : errorMessage(error));
  const accept = useAction(
    async () => {
      await acceptInvitation(token);
      setAnswer("accepted");
    },
    { onError },
  );
  const decline = useAction(
    async () => {
      await declineInvitation(token);
      setAnswer("declined");
    },
    { onError },
  );

  if (!peek) return <PageLoader label="Checking your invitation" />;
  if (failure) return <Failed title="Your invitation" message={failure} />;
  if (answer === "declined")
    return (
      <AuthLayout title="Invitation declined">
        <Text>Nothing was added to your account, and {peek.gym} keeps nothing of it.</Text>
      </AuthLayout>
    );
  if (answer === "accepted")
    return (
      <Done title="Invitation accepted">
        {peek.kind === "pif"
          ? `You're a member of ${peek.gym}. Sign in with your usual email and password to see your membership.`
          : `You're now staff at ${peek.organisation}. Sign in with your usual email and password.`}
      </Done>
    );
  if (!peek.valid)
    return <Failed title="Your invitation" message={`${DEAD} Ask the gym to send a new one.`} />;
  return (
    <AuthLayout
      title={`${peek.gym} invites you`}
      description={
        <>
          For <b>{peek.email}</b>.
        </>
      }
    >
      <Stack gap="md">
        <Text>{peek.offer}</Text>
        <Text size="sm" c="dimmed">
          Nothing changes until you answer. Declining leaves nothing behind.
        </Text>
        <Group grow>
          <Button variant="default" size="md" onClick={() => void decline.run()} loading={decline.running}>
            Decline
          </Button>
          <Button size="md" onClick={() => void accept.run()} loading={accept.running}>
            Accept
          </Button>
        </Group>
      </Stack>
    </AuthLayout>
  );
}

/** One click on an emailed link that does one thing (confirm or undo an email change). */
function OneShot({
  title,
  act,
  done,
}: {
  title: string;
  act: (token: string) => Promise<{ email: string }>;
  done: (email: string) => string;
}) {
  useDocumentTitle(title);
  const token = useToken();
  const [result, setResult] = useState<{ email: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const action = useAction(async () => setResult(await act(token)), {
    onError: (error) =>
      setFailure(
        isApiError(error) && error.status === 422
          ? (Object.values(error.errors)[0]?.[0] ?? DEAD)
          : errorMessage(error),
      ),
  });
  if (failure) return <Failed title={title} message={failure} />;
  if (result) return <Done title={title}>{done(result.email)}</Done>;
  return (
    <AuthLayout title={title}>
      <Button fullWidth size="md" onClick={() => void action.run()} loading={action.running}>
        {title}
      </Button>
    </AuthLayout>
  );
}

export function ConfirmEmailRoute() {
  return (
    <OneShot
      title="Confirm your new login email"
      act={confirmEmailChange}
      done={(email) => `Done: you sign in with ${email} from now on.`}
    />
  );
}

export function UndoEmailRoute() {
  return (
    <OneShot
      title="Undo the login email change"
      act={undoEmailChange}
      done={(email) =>
        `Your login email is ${email} again. Everyone signed in to your account was signed out; we emailed you a link to set a new password.`
      }
    />
  );
}
