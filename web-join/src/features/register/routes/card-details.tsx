import type { CardSetup } from "@gym/core/contract/registration";
import { errorMessage, isApiError } from "@gym/web/api";
import { useAction } from "@gym/web/forms";
import { FormError, PageLoader } from "@gym/web/ui";
import { Button, Paper, Stack, Text } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconLock } from "@tabler/icons-react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { browser } from "../../../app/config";
import { JoinLayout } from "../../../components/JoinLayout";
import { refreshRegistration, saveCard, startCardSetup, useRegistration } from "../api/registration";
import { owedBefore } from "../components/payment-change";

const StripeCardElement = lazy(() =>
  import("../components/StripeCardElement").then((m) => ({ default: m.StripeCardElement })),
);

/**
 * `/card-details`: saving a card through a Stripe SetupIntent on the gym's connected account.
 * Card numbers never reach our API: in AWS Stripe's own card element (Stripe.js, loaded lazily
 * with the configured publishable key); locally the simulated card form (standing in for it) confirms the SetupIntent and returns here with `setup_intent` and
 * `redirect_status`, as Stripe.js does; then `POST /api/me/payment-types/card` saves it.
 */
export function CardDetailsRoute() {
  useDocumentTitle("Card details · Join");
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { data: state } = useRegistration();
  const returned = params.get("setup_intent");
  const status = params.get("redirect_status");
  const [error, setError] = useState<string | null>(
    returned && status && status !== "succeeded" ? "Your card was not saved. Please try again." : null,
  );
  // Back from Stripe with a confirmed SetupIntent: busy while the card is saved.
  const [saving, setSaving] = useState(Boolean(returned && status === "succeeded"));
  const saved = useRef(false);
  const [stripeSetup, setStripeSetup] = useState<(CardSetup & { publishable_key: string }) | null>(null);

  useEffect(() => {
    if (!returned || status !== "succeeded" || saved.current) return;
    saved.current = true;
    void (async () => {
      try {
        // What was owed before (a member replacing a card that declined): the next page says
        // whether the new card paid it.
        const change = owedBefore(await refreshRegistration());
        await saveCard(returned);
        await refreshRegistration();
        navigate("/card-connected", { replace: true, state: change });
      } catch (failure) {
        setError(
          isApiError(failure)
            ? (failure.errors.setup_intent_id?.[0] ?? errorMessage(failure))
            : errorMessage(failure),
        );
        setSaving(false);
      }
    })();
  }, [returned, status, navigate]);

  // Answers true when the browser goes to the card form (busy until it has gone).
  const starting = useAction(
    async () => {
      const setup = await startCardSetup();
      if (setup.form_url) {
        browser.go(setup.form_url);
        return true;
      }
      if (setup.publishable_key) setStripeSetup({ ...setup, publishable_key: setup.publishable_key });
      else setError("Card payments cannot be set up here yet. Please choose bank account or ask the gym.");
      return false;
    },
    { onError: (failure) => setError(errorMessage(failure)), leavesPage: (left) => left },
  );
  const busy = saving || starting.running;
  const start = () => {
    if (busy) return;
    setError(null);
    void starting.run();
  };

  if (!state) return <PageLoader />;
  return (
    <JoinLayout gym={state.gym} title="Card details" description="Add the card your membership is paid with.">
      <Paper withBorder p={{ base: "md", xs: "lg" }} shadow="xs">
        <Stack gap="md">
          {error && <FormError title="Your card is not saved">{error}</FormError>}
          <Text size="sm" c="gray.7">
            {state.general_card_surcharge_text}
          </Text>
          <Text size="sm" c="gray.7">
            <IconLock size={14} aria-hidden /> Your card details go straight to Stripe, our payment provider;
            the gym never sees your card number.
          </Text>
          {stripeSetup ? (
            <Suspense fallback={<PageLoader />}>
              <StripeCardElement setup={stripeSetup} />
            </Suspense>
          ) : (
            <Button size="lg" fullWidth onClick={start} loading={busy}>
              Enter card details
            </Button>
          )}
          <Button size="lg" fullWidth variant="default" onClick={() => navigate("/choose-payment-method")}>
            Choose another way to pay
          </Button>
        </Stack>
      </Paper>
    </JoinLayout>
  );
}

export { CardDetailsRoute as Component };
