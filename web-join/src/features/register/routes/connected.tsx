import { PageLoader } from "@gym/web/ui";
import { Button, Paper, Stack, Text, ThemeIcon } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconCheck } from "@tabler/icons-react";
import { useLocation, useNavigate } from "react-router-dom";
import { JoinLayout } from "../../../components/JoinLayout";
import { useRegistration } from "../api/registration";
import { paymentTypeLabel } from "../components/payment-type";

/** `/bank-account-connected` and `/card-connected`: the saved payment method, then on to confirming. */
export function ConnectedRoute() {
  const { pathname } = useLocation();
  const bank = pathname === "/bank-account-connected";
  const title = bank ? "Bank account connected" : "Card connected";
  useDocumentTitle(`${title} · Join`);
  const navigate = useNavigate();
  const { data: state } = useRegistration();
  if (!state) return <PageLoader />;
  const method = state.default_payment_type;
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
              ? "Your membership payments will come from this account. Bank payments carry no surcharge."
              : "Your membership payments will be charged to this card."}
          </Text>
          <Button
            size="lg"
            fullWidth
            onClick={() => navigate(state.welcome ? "/welcome-to-gym" : "/confirm-subscription")}
          >
            Continue
          </Button>
        </Stack>
      </Paper>
    </JoinLayout>
  );
}

export { ConnectedRoute as Component };
