import { errorMessage } from "@gym/web/api";
import { Alert, Button, Container, Loader, Stack, Text, Title } from "@mantine/core";
import { IconAlertCircle, IconCircleCheck } from "@tabler/icons-react";
import { useEffect, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { usePageTitle } from "../../../app/page-title";
import { exchangeStripeCode, type Gym } from "../api/gyms";

type State = { kind: "working" } | { kind: "done"; gym: Gym } | { kind: "failed"; message: string };

/**
 * /stripe/callback: where Stripe returns. Posts the code and state to the exchange once, then
 * shows the result and goes back to the gym's edit page.
 */
export function StripeCallbackRoute() {
  usePageTitle("Connecting Stripe");
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [state, setState] = useState<State>({ kind: "working" });
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const code = params.get("code");
    const stateToken = params.get("state");
    if (params.get("error") || !code || !stateToken) {
      setState({
        kind: "failed",
        message: params.get("error_description") ?? "Stripe was not connected: the request was cancelled.",
      });
      return;
    }
    exchangeStripeCode(code, stateToken)
      .then((gym) => {
        setState({ kind: "done", gym });
        setTimeout(() => navigate(`/gyms/${gym.id}/edit#card-payments`, { replace: true }), 1500);
      })
      .catch((error) => setState({ kind: "failed", message: errorMessage(error) }));
  }, [params, navigate]);

  return (
    <Container size="sm" py="xl">
      <Stack gap="md" align="stretch">
        <Title order={1} fz="h2">
          Card payments
        </Title>
        {state.kind === "working" && (
          <Stack align="center" gap="sm" py="lg">
            <Loader />
            <Text>Connecting your Stripe account…</Text>
          </Stack>
        )}
        {state.kind === "done" && (
          <Alert color="green" icon={<IconCircleCheck size={18} />} title="Stripe connected">
            {state.gym.name} can now take card payments. Taking you back to the gym…
            <div>
              <Button mt="sm" variant="light" component={Link} to={`/gyms/${state.gym.id}/edit`}>
                Back to {state.gym.name}
              </Button>
            </div>
          </Alert>
        )}
        {state.kind === "failed" && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} title="Stripe was not connected">
            {state.message}
            <div>
              <Button mt="sm" variant="light" color="red" component={Link} to="/gyms">
                Back to gyms
              </Button>
            </div>
          </Alert>
        )}
      </Stack>
    </Container>
  );
}

export { StripeCallbackRoute as Component };
