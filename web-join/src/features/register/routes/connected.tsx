import { formatMoney } from "@gym/web/format";
import { PageLoader } from "@gym/web/ui";
import { Alert, Button, Paper, Stack, Text, ThemeIcon } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconCheck } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { JoinLayout } from "../../../components/JoinLayout";
import { useRegistration } from "../api/registration";
import { owedOf, type PaymentChange } from "../components/payment-change";
import { paymentTypeLabel } from "../components/payment-type";
import { MEMBERSHIP_PATH } from "../steps";

/** How often, and how many times, the page asks again whether the owed payment went through. */
const RECHECK_MS = 1_000;
const RECHECKS = 15;

/**
 * `/bank-account-connected` and `/card-connected`: the saved payment method. While joining, on to
 * confirming; for a member already subscribed (a new card after a declined payment), that the
 * method changed and whether the amount owed was paid with it, then back to their membership.
 */
export function ConnectedRoute() {
  const { pathname, state: navigation } = useLocation();
  const bank = pathname === "/bank-account-connected";
  const { data: state, mutate } = useRegistration();
  const changed = Boolean(state?.welcome);
  const what = bank ? "Bank account" : "Card";
  const title = `${what} ${changed ? "changed" : "connected"}`;
  useDocumentTitle(`${title} · Join`);
  const navigate = useNavigate();
  // The owed amount is retried with the new method by a reaction to the change, a moment after it
  // was saved, and its answer may land later still (a provider's settlement): while the latest
  // payment is still the declined one (not retried yet) or the retry is in flight, ask again for a
  // while before saying whether it was paid.
  const change = navigation as PaymentChange | null;
  const owed = change?.owed ?? 0;
  const [asked, setAsked] = useState(0);
  const latest = state?.subscription?.latest_payment ?? null;
  const inFlight = latest?.status === "pending_request";
  const notRetriedYet = Boolean(change?.payment_id) && latest?.id === change?.payment_id;
  const waiting = Boolean(state?.welcome && owed > 0 && (inFlight || notRetriedYet) && asked < RECHECKS);
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => {
      void mutate();
      setAsked((n) => n + 1);
    }, RECHECK_MS);
    return () => clearTimeout(timer);
  }, [waiting, asked, mutate]);
  if (!state || waiting) return <PageLoader label={waiting ? "Checking your payment" : undefined} />;
  const method = state.default_payment_type;
  const stillOwed = owedOf(state) || owed;
  const thisMethod = bank ? "this account" : "this card";
  return (
    <JoinLayout gym={state.gym} title={title}>
      <Paper withBorder p={{ base: "md", xs: "lg" }} shadow="xs">
        <Stack gap="md" align="center">
          <ThemeIcon size={64} radius={64} color="teal" aria-hidden>
            <IconCheck size={36} />
          </ThemeIcon>
          <Text fw={700} fz="lg" ta="center">
            {method ? paymentTypeLabel(method) : title}
          </Text>
          <Text ta="center" c="gray.7">
            {bank
              ? `Your membership payments will ${changed ? "now " : ""}come from this account. Bank payments carry no surcharge.`
              : `Your membership payments will ${changed ? "now " : ""}be charged to this card.`}
          </Text>
          {changed && state.payment_failed && (
            <Alert color="red" title="Your payment is still owed" role="alert" w="100%">
              <Stack gap="sm">
                <Text>
                  {formatMoney(stillOwed)} is still owed
                  {latest?.error_description ? `: ${latest.error_description}` : "."} Try another way to pay,
                  or ask at the front desk.
                </Text>
                <Button onClick={() => navigate("/choose-payment-method")}>Try another way to pay</Button>
              </Stack>
            </Alert>
          )}
          {changed && !state.payment_failed && owed > 0 && (
            <Alert color="teal" role="status" w="100%">
              The {formatMoney(owed)} you owed has been paid with {thisMethod}.
            </Alert>
          )}
          {changed ? (
            <Button component={Link} to={MEMBERSHIP_PATH} size="lg" fullWidth variant="default">
              Back to my membership
            </Button>
          ) : (
            <Button size="lg" fullWidth onClick={() => navigate("/confirm-subscription")}>
              Continue
            </Button>
          )}
        </Stack>
      </Paper>
    </JoinLayout>
  );
}

export { ConnectedRoute as Component };
