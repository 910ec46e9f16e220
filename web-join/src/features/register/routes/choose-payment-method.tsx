import { errorMessage } from "@gym/web/api";
import { useAction } from "@gym/web/forms";
import { FormError, PageLoader } from "@gym/web/ui";
import { Button, Group, Paper, Stack, Text, ThemeIcon, UnstyledButton } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconBuildingBank, IconChevronRight, IconCreditCard } from "@tabler/icons-react";
import { type ReactNode, useState } from "react";
import { useNavigate } from "react-router-dom";
import { JoinLayout } from "../../../components/JoinLayout";
import { refreshRegistration, switchPaymentType, useRegistration } from "../api/registration";
import { connectedPath, owedBefore } from "../components/payment-change";
import { paymentTypeLabel } from "../components/payment-type";
import { goToBankConsent } from "../components/start-bank";

function Choice(props: {
  icon: ReactNode;
  title: string;
  detail: ReactNode;
  onClick: () => void;
  busy?: boolean;
}) {
  return (
    <UnstyledButton
      onClick={props.onClick}
      disabled={props.busy}
      p="md"
      style={{ border: "1px solid var(--mantine-color-gray-4)", borderRadius: 12, background: "white" }}
    >
      <Group wrap="nowrap" justify="space-between">
        <Group wrap="nowrap" align="flex-start">
          <ThemeIcon size={44} radius="md" variant="light" aria-hidden>
            {props.icon}
          </ThemeIcon>
          <Stack gap={2}>
            <Text fw={700} fz="lg">
              {props.title}
            </Text>
            <Text size="sm" c="gray.7">
              {props.detail}
            </Text>
          </Stack>
        </Group>
        <IconChevronRight aria-hidden style={{ flexShrink: 0 }} />
      </Group>
    </UnstyledButton>
  );
}

/**
 * `/choose-payment-method`: bank account (Akahu consent) or card (Stripe), as the gym takes them;
 * the card surcharge is shown from `general_card_surcharge_text`. A member who already saved one
 * may continue with it.
 */
export function ChoosePaymentMethodRoute() {
  useDocumentTitle("Choose how to pay · Join");
  const navigate = useNavigate();
  const { data: state } = useRegistration();
  const [error, setError] = useState<string | null>(null);
  const showError = (failure: unknown) => setError(errorMessage(failure));
  // To the bank's consent page: busy until the browser has gone there.
  const toBank = useAction(goToBankConsent, { onError: showError, leavesPage: true });
  const switching = useAction(
    async (id: string, welcome: boolean) => {
      const change = owedBefore(state);
      const type = await switchPaymentType(id);
      await refreshRegistration();
      // Subscribed: the connected page says the method changed and what became of any amount owed.
      if (welcome) navigate(connectedPath(type), { state: change });
      else navigate("/confirm-subscription");
    },
    { onError: showError },
  );
  const busy = toBank.running || switching.running;
  if (!state) return <PageLoader />;

  const bank = () => {
    if (busy) return;
    setError(null);
    void toBank.run();
  };
  const useSaved = (id: string) => void (busy || switching.run(id, state.welcome));
  const saved = state.payment_types.filter((p) => p.status === "active");

  return (
    <JoinLayout
      gym={state.gym}
      title="Choose how to pay"
      description="Your membership is paid automatically."
    >
      {error && <FormError title="Something went wrong">{error}</FormError>}
      {state.reauthenticate_akahu && (
        <Paper withBorder p="md" bg="yellow.0">
          <Text>
            Your bank connection needs to be renewed before your next payment. Connect your bank again.
          </Text>
        </Paper>
      )}
      <Stack gap="md">
        {state.gym.takes_bank && (
          <Choice
            icon={<IconBuildingBank size={24} />}
            title="Bank account"
            detail="Connect your bank securely through Akahu. No surcharge."
            onClick={bank}
            busy={busy}
          />
        )}
        {state.gym.takes_cards && (
          <Choice
            icon={<IconCreditCard size={24} />}
            title="Card"
            detail={state.general_card_surcharge_text}
            onClick={() => navigate("/card-details")}
            busy={busy}
          />
        )}
        {!state.gym.takes_bank && !state.gym.takes_cards && (
          <Text>This gym cannot take payments online yet. Please ask at the front desk.</Text>
        )}
      </Stack>
      {saved.length > 0 && (
        <Stack gap="xs">
          <Text fw={700}>Or use one you have added</Text>
          {saved.map((type) => (
            <Button
              key={type.id}
              variant="default"
              size="lg"
              onClick={() => useSaved(type.id)}
              disabled={busy}
            >
              {paymentTypeLabel(type)}
            </Button>
          ))}
        </Stack>
      )}
    </JoinLayout>
  );
}

export { ChoosePaymentMethodRoute as Component };
