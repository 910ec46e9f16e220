import { addDays } from "@gym/core/billing/calendar";
import type { SurchargeTotal } from "@gym/core/contract/payment";
import type { ProRata } from "@gym/core/contract/price";
import type { PromoCheck } from "@gym/core/contract/promo";
import { api, errorMessage } from "@gym/web/api";
import { formatLongDate, formatLongLastDay, formatMoney, formatShortDay } from "@gym/web/format";
import { useAction } from "@gym/web/forms";
import { FormError, PageLoader } from "@gym/web/ui";
import { Anchor, Button, Checkbox, Divider, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { type ReactNode, useCallback, useRef, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import useSWR from "swr";
import { JoinLayout } from "../../../components/JoinLayout";
import {
  confirmSubscription,
  quoteFirstPayment,
  refreshRegistration,
  useRegistration,
} from "../api/registration";
import { PromoCodeField } from "../components/PromoCodeField";
import { paymentTypeLabel } from "../components/payment-type";
import { RegisterFieldsForm, type SaveUnsaved } from "../components/RegisterFieldsForm";
import { REJOIN_PATH } from "../steps";

/** "every week": how often a price's payments repeat, as a sentence says it. */
const EVERY: Record<string, string> = {
  daily: "every day",
  weekly: "every week",
  fortnightly: "every fortnight",
  monthly: "every month",
  bi_monthly: "every two months",
  quarterly: "every three months",
  twice_yearly: "every six months",
  yearly: "every year",
};

function Line({ label, value, strong }: { label: ReactNode; value: ReactNode; strong?: boolean }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="md">
      <Text fw={strong ? 700 : 400}>{label}</Text>
      <Text fw={strong ? 700 : 400} ta="right">
        {value}
      </Text>
    </Group>
  );
}

/**
 * `/confirm-subscription`: the membership, its start and billing dates and the first payment
 * broken down (pro-rata, joining fee, card surcharge, total), then the regular amount and date;
 * the terms (and for bank payments the direct-debit authority and the notice of the first debit);
 * then `POST /api/subscriptions`.
 */
export function ConfirmSubscriptionRoute() {
  useDocumentTitle("Confirm your membership · Join");
  const navigate = useNavigate();
  const { data: state } = useRegistration();
  const price = state?.price ?? null;
  const recurring = price ? price.billing_frequency !== "one_off" : false;
  // A visit pass is worded as a pass (docs/offers.md "Visit passes"): its visits and days, paid once.
  const pass = price?.kind === "pass" ? price : null;
  const start = state?.start_date ?? null;
  const { data: quote, error: quoteError } = useSWR<ProRata>(
    price && start && recurring ? ["quote", price.id, start, state?.billing_date ?? start] : null,
    () =>
      quoteFirstPayment(price!.id, {
        start_date: start!,
        billing_date: state?.billing_date ?? start!,
        link: state?.price_link,
      }),
  );
  const method = state?.default_payment_type ?? null;
  const byCard = method?.type === "stripe_card";
  // What the method adds: to the regular amount (recurring), or to the one payment (paid once: the
  // price and its joining fee), so a card's surcharge is in every total the member agrees to.
  const paidOnce = price && !recurring ? price.amount + (price.joining_fee ?? 0) : null;
  const { data: regular } = useSWR<SurchargeTotal>(
    price && method ? ["surcharge", price.id, method.id, paidOnce] : null,
    () =>
      api.get<SurchargeTotal>("/api/surcharge-total", {
        query:
          paidOnce === null
            ? { price_id: price!.id, payment_type_id: method!.id }
            : { amount: paidOnce, payment_type_id: method!.id },
      }),
  );
  const [terms, setTerms] = useState(false);
  const [authority, setAuthority] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A promo code typed (sent with the confirmation) and, once the check accepts it, its figures.
  const [promo, setPromo] = useState<{ accepted: PromoCheck | null; code: string }>({
    accepted: null,
    code: "",
  });
  const onPromo = useCallback(
    (accepted: PromoCheck | null, code: string) => setPromo({ accepted, code }),
    [],
  );
  const saveUnsaved = useRef<SaveUnsaved | null>(null);
  // Answers false when the details typed under "About you" were refused (shown there): nothing sent.
  const confirming = useAction(
    async () => {
      // What was typed under "About you" without "Save my details" is saved with the confirmation.
      if (saveUnsaved.current && !(await saveUnsaved.current())) return false;
      await confirmSubscription(promo.code || undefined);
      await refreshRegistration();
      navigate("/welcome-to-gym");
      return true;
    },
    { onError: (failure) => setError(errorMessage(failure)), leavesPage: (confirmed) => confirmed },
  );
  const busy = confirming.running;

  if (!state) return <PageLoader />;
  if (!price || !start) {
    return (
      <JoinLayout gym={state.gym} title="Confirm your membership">
        <FormError title="No membership chosen">Choose the membership you want to join.</FormError>
        <Button component={Link} to={REJOIN_PATH} size="lg" fullWidth>
          Choose your membership
        </Button>
      </JoinLayout>
    );
  }

  const accepted = promo.accepted;
  // Paid once by card: shown once its surcharge is known (never a total without it).
  const listedFirst = recurring ? (quote?.first_payment_total ?? null) : byCard && !regular ? null : paidOnce;
  // With a code accepted, the first payment is the check's (the discount taken off, the surcharge on what is left).
  const firstTotal = accepted ? accepted.first_payment.amount : listedFirst;
  const surcharge = accepted
    ? accepted.first_payment.surcharge
    : byCard
      ? recurring
        ? (quote?.card_surcharge ?? 0)
        : (regular?.surcharge ?? 0)
      : 0;
  const firstDate = recurring ? (quote?.first_payment_date ?? null) : start;
  const today = state.today;
  const firstWhen = firstDate
    ? firstDate === today
      ? `today, ${formatShortDay(firstDate)}`
      : `on ${formatShortDay(firstDate)}`
    : "";
  // A trial (docs/offers.md "Trials"): what it costs today, all-in; the figures below are then the
  // first paid charge's, on the day after the trial.
  const trial = recurring ? (quote?.trial ?? null) : null;
  const trialTotal = trial ? trial.amount + (byCard ? trial.card_surcharge : 0) : 0;
  // The regular amount as it will be taken (a card's surcharge included), once known.
  const regularAmount =
    quote && (regular || !method) ? (regular?.formatted_total ?? quote.formatted_recurring_amount) : null;

  const confirm = () => {
    setAttempted(true);
    setError(null);
    if (!terms || (!byCard && !authority)) return;
    // A code typed but not accepted is not sent silently: the member clears it or fixes it.
    if (promo.code && !accepted) {
      setError("Check your promo code, or clear it to join without it.");
      return;
    }
    void confirming.run();
  };

  return (
    <JoinLayout
      gym={state.gym}
      title="Confirm your membership"
      description="Check the details, then confirm."
    >
      {error && <FormError title="Your membership is not confirmed">{error}</FormError>}
      {quoteError && (
        <FormError title="We could not work out your first payment">{errorMessage(quoteError)}</FormError>
      )}
      <Paper withBorder p={{ base: "md", xs: "lg" }} shadow="xs">
        <Stack gap="sm">
          <Title order={2} fz="lg">
            {price.offering.name}
          </Title>
          {pass ? (
            <Text fw={600} data-testid="pass-summary">
              Visit pass: {pass.formatted_pass}
            </Text>
          ) : (
            <Line label="Price" value={price.label} />
          )}
          <Button component={Link} to={REJOIN_PATH} variant="subtle" size="compact-sm" px={0} w="fit-content">
            Change membership or start date
          </Button>
          <Line label={pass ? "Valid from" : "Start date"} value={formatLongDate(start)} />
          {pass?.valid_days ? (
            <Line label="Valid until" value={formatLongLastDay(addDays(start, pass.valid_days))} />
          ) : null}
          {/* The price's trial in the plan list's words (docs/offers.md "Trials"), for this member. */}
          {trial && <Line label={price.formatted_trial} value={`until ${formatLongDate(trial.last_day)}`} />}
          {recurring && quote && (
            <Line label="Billing from" value={formatLongDate(quote.first_full_payment_date)} />
          )}
          <Line label="Paying by" value={method ? paymentTypeLabel(method) : "—"} />
          <Divider my="xs" />
          {trial && (
            <>
              <Title order={2} fz="lg">
                Your trial
              </Title>
              <Text data-testid="trial-summary">
                {trialTotal === 0
                  ? `Nothing to pay for your ${trial.days}-day trial.`
                  : `${formatMoney(trialTotal)} ${start === today ? "today" : `on ${formatShortDay(start)}`} for your ${trial.days}-day trial.`}{" "}
                Stop it before {formatLongDate(trial.ends_on)} from your membership page and you pay nothing
                more.
              </Text>
              <Line label={`Trial (${trial.days} days)`} value={formatMoney(trialTotal)} />
              <Divider my="xs" />
            </>
          )}
          <Title order={2} fz="lg">
            {trial ? "First payment after your trial" : pass ? "Payment" : "First payment"}
          </Title>
          {firstTotal !== null && firstDate && (!recurring || (quote && regularAmount)) && (
            <Text data-testid="payment-dates">
              {recurring ? "First payment" : "Payment"} {formatMoney(firstTotal + surcharge)} {firstWhen}
              {recurring && quote
                ? `; then ${regularAmount} ${EVERY[price.billing_frequency] ?? price.frequency_label.toLowerCase()} from ${formatShortDay(quote.second_payment_date)}.`
                : pass
                  ? `, paid once: ${pass.visits} ${pass.visits === 1 ? "visit" : "visits"}, no further payments.`
                  : ". Paid in full: no further payments."}
            </Text>
          )}
          {recurring && !quote && !quoteError && <PageLoader label="Working out your first payment" />}
          {quote?.is_pro_rata && (
            <Line label={`Pro-rata (${quote.pro_rata_days} days)`} value={quote.formatted_pro_rata_amount} />
          )}
          {/* The period itself, so the lines add up to the total (a promo code's line takes off it). */}
          {recurring && quote && !quote.is_pro_rata && (
            <Line label="First period" value={formatMoney(quote.first_payment_total - quote.joining_fee)} />
          )}
          {!recurring && <Line label={pass ? "Visit pass" : "Membership"} value={price.formatted_amount} />}
          {(price.joining_fee ?? 0) > 0 && <Line label="Joining fee" value={price.formatted_joining_fee} />}
          {accepted && accepted.first_payment.discount > 0 && (
            <Line
              label={`Promo code ${accepted.code} (${accepted.summary})`}
              value={`-${accepted.first_payment.formatted_discount}`}
            />
          )}
          {byCard || (accepted && surcharge > 0) ? (
            <Line label="Card surcharge" value={formatMoney(surcharge)} />
          ) : null}
          {firstTotal !== null && <Line label="Total" value={formatMoney(firstTotal + surcharge)} strong />}
          {recurring && quote && (
            <>
              <Divider my="xs" />
              <Line
                label={`Then ${EVERY[price.billing_frequency] ?? price.frequency_label.toLowerCase()}, from ${formatLongDate(quote.second_payment_date)}`}
                value={regularAmount}
                strong
              />
            </>
          )}
        </Stack>
      </Paper>

      <Paper withBorder p={{ base: "md", xs: "lg" }} shadow="xs">
        <PromoCodeField
          priceId={price.id}
          start={start}
          billingDate={state.billing_date ?? start}
          paymentType={byCard || !method ? "stripe_card" : "bank_account"}
          onChange={onPromo}
        />
      </Paper>

      <RegisterFieldsForm initial={state.register_fields} unsaved={saveUnsaved} />

      <Paper withBorder p={{ base: "md", xs: "lg" }} shadow="xs">
        <Stack gap="md">
          <Checkbox
            label={
              state.terms_url ? (
                <>
                  I accept{" "}
                  <Anchor href={state.terms_url} target="_blank" rel="noopener noreferrer">
                    {state.gym.name}'s membership terms and conditions
                  </Anchor>{" "}
                  (opens in a new tab)
                </>
              ) : (
                `I accept ${state.gym.name}'s membership terms and conditions`
              )
            }
            description={
              state.terms_url
                ? undefined
                : `${state.gym.name} has not put its terms online. You agree to this membership, its payments and dates as shown above, and to follow the gym's rules; ask at the front desk for a copy of the terms.`
            }
            checked={terms}
            onChange={(event) => setTerms(event.currentTarget.checked)}
            error={attempted && !terms ? "Please accept the terms to continue" : undefined}
          />
          {!byCard && (
            <>
              <Checkbox
                label={`I authorise ${state.gym.name} to debit my bank account for this membership, as a direct debit`}
                checked={authority}
                onChange={(event) => setAuthority(event.currentTarget.checked)}
                error={attempted && !authority ? "Please authorise the direct debit to continue" : undefined}
              />
              <Text size="sm" c="gray.7">
                We will email you notice of your first debit, its amount and date, before it is taken.
              </Text>
            </>
          )}
          <Button size="lg" fullWidth onClick={confirm} loading={busy}>
            Confirm membership
          </Button>
        </Stack>
      </Paper>
    </JoinLayout>
  );
}

export { ConfirmSubscriptionRoute as Component };
