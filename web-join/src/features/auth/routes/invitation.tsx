import { api, errorMessage, isApiError } from "@gym/web/api";
import { useAction } from "@gym/web/forms";
import { PageLoader } from "@gym/web/ui";
import { Alert, Button, Group, Paper, Stack, Text } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { JoinLayout } from "../../../components/JoinLayout";
import { signInPath, useLinkedGym } from "../linked-gym";

interface Peek {
  valid: boolean;
  gym?: string;
  offer?: string;
  email?: string;
}

const DEAD = "This invitation has expired or was already answered. Ask the gym to send a new one.";

/**
 * `/invitation?token=…&gym=…` on the join site: a gym invites someone who already has an account
 * to a pay-in-full membership (docs/access-control.md "Enrolment needs the person"). Nothing is
 * made until they accept; declining leaves nothing behind. Staff invitations open on the staff site.
 */
export function InvitationRoute() {
  useDocumentTitle("Your invitation · Join");
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const { uuid, gym } = useLinkedGym();
  const [peek, setPeek] = useState<Peek | null>(null);
  const [answer, setAnswer] = useState<"accepted" | "declined" | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    api
      .post<Peek>("/api/invitations/peek", { token })
      .then(setPeek)
      .catch(() => setPeek({ valid: false }));
  }, [token]);
  const onError = (error: unknown) =>
    setFailure(isApiError(error) && error.status === 422 ? DEAD : errorMessage(error));
  const accept = useAction(
    async () => {
      await api.post("/api/invitations/accept", { token });
      setAnswer("accepted");
    },
    { onError },
  );
  const decline = useAction(
    async () => {
      await api.post("/api/invitations/decline", { token });
      setAnswer("declined");
    },
    { onError },
  );

  if (!peek) return <PageLoader label="Checking your invitation" />;
  const name = peek.gym ?? gym?.name ?? "The gym";
  const body = failure ? (
    <Alert color="orange">{failure}</Alert>
  ) : answer === "declined" ? (
    <Text>Declined. Nothing was added to your account, and {name} keeps nothing of it.</Text>
  ) : answer === "accepted" ? (
    <Stack gap="md">
      <Text>
        You're a member of {name}. Sign in with your usual email and password to see your membership.
      </Text>
      <Button component={Link} to={signInPath({ gym: uuid, email: peek.email })} size="lg" fullWidth>
        Sign in
      </Button>
    </Stack>
  ) : !peek.valid ? (
    <Alert color="orange">{DEAD}</Alert>
  ) : (
    <Stack gap="md">
      <Text>{peek.offer}</Text>
      <Text size="sm" c="dimmed">
        Nothing changes until you answer. Declining leaves nothing behind.
      </Text>
      <Group grow>
        <Button variant="default" size="lg" onClick={() => void decline.run()} loading={decline.running}>
          Decline
        </Button>
        <Button size="lg" onClick={() => void accept.run()} loading={accept.running}>
          Accept
        </Button>
      </Group>
    </Stack>
  );
  return (
    <JoinLayout gym={gym} title={answer === "accepted" ? "Welcome" : `${name} invites you`}>
      <Paper withBorder p={{ base: "md", xs: "lg" }} shadow="xs">
        {body}
      </Paper>
    </JoinLayout>
  );
}

export { InvitationRoute as Component };
