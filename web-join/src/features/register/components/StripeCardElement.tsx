import type { CardSetup } from "@gym/core/contract/registration";
import { FormError } from "@gym/web/ui";
import { Box, Button, Loader, Stack } from "@mantine/core";
import type { Stripe, StripeElements } from "@stripe/stripe-js";
import { useEffect, useRef, useState } from "react";

/**
 * Stripe's own card element (the Payment Element, cards only) on the gym's connected account, for
 * when Stripe is real (AWS). Stripe.js is loaded on this page only, and only then: locally the
 * simulated card form stands in. Confirming sends the member to Stripe and back to
 * `/card-details?setup_intent=…&redirect_status=…`, which saves the card (card-details.tsx).
 */
export function StripeCardElement({ setup }: { setup: CardSetup & { publishable_key: string } }) {
  const mount = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState<{ stripe: Stripe; elements: StripeElements } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      try {
        const { loadStripe } = await import("@stripe/stripe-js");
        const stripe = await loadStripe(setup.publishable_key, { stripeAccount: setup.stripe_account });
        if (!stripe || cancelled || !mount.current) return;
        const elements = stripe.elements({ clientSecret: setup.client_secret });
        elements.create("payment", { paymentMethodOrder: ["card"] }).mount(mount.current);
        setReady({ stripe, elements });
      } catch {
        if (!cancelled) setError("The card form could not be loaded. Check your connection and try again.");
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [setup]);

  const confirm = async () => {
    if (!ready) return;
    setBusy(true);
    setError(null);
    const { error: failure } = await ready.stripe.confirmSetup({
      elements: ready.elements,
      confirmParams: { return_url: `${window.location.origin}/card-details` },
    });
    // Only reached when Stripe did not redirect: the card was refused or a field is wrong.
    setError(failure?.message ?? "Your card was not saved. Please try again.");
    setBusy(false);
  };

  return (
    <Stack gap="md">
      {error && <FormError title="Your card is not saved">{error}</FormError>}
      <Box ref={mount} aria-label="Card details" role="group" mih={ready ? undefined : 120}>
        {!ready && !error && <Loader size="sm" aria-label="Loading the card form" />}
      </Box>
      <Button size="lg" fullWidth onClick={confirm} loading={busy} disabled={!ready}>
        Save card
      </Button>
    </Stack>
  );
}
