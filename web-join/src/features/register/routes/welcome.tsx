import { formatLongDate, formatMoney, titleCase } from "@gym/web/format";
import { PageLoader } from "@gym/web/ui";
import { Alert, Button, Paper, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconConfetti } from "@tabler/icons-react";
import { Link, useNavigate } from "react-router-dom";
import { BankTransferDetails } from "../../../components/BankTransferDetails";
import { JoinLayout } from "../../../components/JoinLayout";
import { useRegistration } from "../api/registration";

/**
 * `/welcome-to-gym`: the gym, the membership, the first payment and its date, how to get in, and
 * the gym's app when it has one.
 */
export function WelcomeRoute() {
  const { data: state } = useRegistration();
  useDocumentTitle(state ? `Welcome to ${state.gym.name}` : "Welcome");
  const navigate = useNavigate();
  if (!state) return <PageLoader />;
  const sub = state.subscription;
  // The first payment while no other has followed it; for a member of longer standing, the next one.
  const latest = sub?.latest_payment ?? null;
  const first =
    sub?.first_payment && (!latest || latest.id === sub.first_payment.id) ? sub.first_payment : null;
  const payment = first ?? sub?.upcoming_payment ?? null;
  const plan = state.price
    ? `${state.price.offering.name}: ${state.price.label}`
    : [sub?.price.offering.name, sub?.price.label].filter(Boolean).join(": ");
  return (
    <JoinLayout gym={state.gym} title={`Welcome to ${state.gym.name}`}>
      <Paper withBorder p={{ base: "md", xs: "lg" }} shadow="xs">
        <Stack gap="md">
          <ThemeIcon size={64} radius={64} color="teal" aria-hidden>
            <IconConfetti size={36} />
          </ThemeIcon>
          <Text fz="lg">
            You're a member, {titleCase(state.name).split(" ")[0]}!
            {state.welcome_emailed ? " We've emailed you a summary." : ""}
          </Text>
          {state.payment_failed && (
            <Alert color="red" title="Your payment did not go through" role="alert">
              <Stack gap="sm">
                <Text>
                  {sub?.latest_payment
                    ? `Your payment of ${formatMoney(sub.latest_payment.total)} was declined${
                        sub.latest_payment.error_description
                          ? `: ${sub.latest_payment.error_description}`
                          : "."
                      }`
                    : "A payment is owed on your membership."}{" "}
                  Add another card or your bank account and we will try again.
                </Text>
                <Button onClick={() => navigate("/choose-payment-method")}>Update how I pay</Button>
              </Stack>
            </Alert>
          )}
          {sub?.next_charge?.kind === "awaiting_transfer" && (
            <Alert color="yellow" title="Awaiting your bank transfer" data-testid="awaiting-transfer">
              We are waiting for your bank transfer of {sub.next_charge.formatted_total}. The gym confirms it
              when it arrives, and your door access starts then.
              <BankTransferDetails transfer={state.bank_transfer} gym={state.gym.name} />
            </Alert>
          )}
          {sub && (
            <Stack gap={4}>
              <Title order={2} fz="lg">
                Your membership
              </Title>
              {plan && <Text>{plan}</Text>}
              <Text>
                {sub.start_date > state.today ? "Starts" : "Started"} {formatLongDate(sub.start_date)}
              </Text>
              {/* A trial is named as one, not as a "first payment" of $0.00 (docs/offers.md "Trials"). */}
              {sub.trial?.in_trial && (
                <Text data-testid="welcome-trial">
                  {sub.trial.amount === 0 ? "Free trial" : `Trial (${formatMoney(sub.trial.amount)})`} until{" "}
                  {formatLongDate(sub.trial.last_day)}. Stop it from your membership page before then and you
                  pay nothing more.
                </Text>
              )}
              {payment && !(sub.trial?.in_trial && payment.total === 0) && (
                <Text>
                  {payment === first ? "First payment" : "Next payment"} {formatMoney(payment.total)} on{" "}
                  {formatLongDate(payment.due_on)}
                  {payment.credit_used > 0
                    ? payment.total === 0
                      ? `: your credit of ${formatMoney(payment.credit_used)} covers it, so nothing is taken`
                      : `, with ${formatMoney(payment.credit_used)} more paid from your credit`
                    : ""}
                </Text>
              )}
            </Stack>
          )}
          <Stack gap={4}>
            <Title order={2} fz="lg">
              Getting in
            </Title>
            <Text>
              {state.gym.has_door_access
                ? "Your door access is set up by the gym: show your photo ID at the front desk on your first visit and staff will give you access."
                : "Show your photo ID at the front desk on your first visit; staff will check you in."}
            </Text>
          </Stack>
          <Button component={Link} to="/membership" variant="default" size="md" fullWidth>
            Manage my membership
          </Button>
          {state.gym.app_link && (
            <Button component="a" href={state.gym.app_link} size="lg" fullWidth>
              Get the gym's app
            </Button>
          )}
          {state.reauthenticate_akahu && (
            <Button size="lg" variant="light" fullWidth onClick={() => navigate("/connect-akahu")}>
              Renew your bank connection
            </Button>
          )}
          <Text size="sm" c="gray.7">
            Questions? Ask at the front desk.
          </Text>
        </Stack>
      </Paper>
    </JoinLayout>
  );
}

export { WelcomeRoute as Component };
