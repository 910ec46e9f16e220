import { clearedAfterFailureLabel } from "@gym/core/contract/labels";
import {
  CANCELLATION_REASONS,
  type CancellationPreview,
  pauseDaysFieldMap,
  pauseDaysInput,
  pauseFromDays,
} from "@gym/core/contract/lifecycle";
import { ChangeLoginEmail } from "@gym/web/account/ChangeLoginEmail";
import { isApiError } from "@gym/web/api";
import { formatDate, formatLongDate, formatLongLastDay, formatMoney, formatPause } from "@gym/web/format";
import { submitHandler, useAction, useZodForm } from "@gym/web/forms";
import { PauseDaysFields } from "@gym/web/forms/PauseDaysFields";
import { PageLoader } from "@gym/web/ui";
import {
  Alert,
  Anchor,
  Box,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { type ReactNode, useState } from "react";
import { Link } from "react-router-dom";
import { BankTransferDetails } from "../../../components/BankTransferDetails";
import { JoinLayout } from "../../../components/JoinLayout";
import { saveRegisterFields, useRegistration } from "../../register/api/registration";
import { paymentTypeLabel } from "../../register/components/payment-type";
import {
  cancelMyMembership,
  pauseMyMembership,
  previewMyCancellation,
  removeMyPause,
  type Subscription,
  useMyMembership,
} from "../api/membership";
import { PassPanel } from "../components/PassPanel";
import { TrialPanel } from "../components/TrialPanel";

const STATUS_LABELS: Record<string, { label: string; color: string }> = {
  sent: { label: "Paid", color: "green" },
  upcoming: { label: "Upcoming", color: "gray" },
  pending_request: { label: "Processing", color: "blue" },
  failed: { label: "Failed", color: "red" },
  declined: { label: "Declined", color: "red" },
  awaiting_payment: { label: "Awaiting payment", color: "yellow" },
};

/** Where the membership stands, in the member's words . */
function standing(sub: Subscription): { label: string; color: string } {
  if (sub.is_cancelled)
    return sub.cancellation_taken_effect
      ? { label: "Cancelled", color: "red" }
      : { label: `Last day ${formatLongLastDay(sub.cancellation_effective_at)}`, color: "orange" };
  if (sub.in_grace_period) return { label: "Payment owed", color: "orange" };
  if (sub.is_paused) return { label: "Paused", color: "yellow" };
  if (sub.pause_in_future) return { label: "Pause booked", color: "yellow" };
  // A pay-in-full bank transfer not yet received: no door access yet, so not "Active" (tour).
  if (sub.is_awaiting_transfer) return { label: "Awaiting transfer", color: "yellow" };
  return { label: "Active", color: "green" };
}

/** A state as dark text beside a coloured dot (coloured text fails AA contrast on a phone in daylight). */
function Status({ label, color, testId }: { label: string; color: string; testId?: string }) {
  return (
    <Group gap={6} wrap="nowrap" justify="flex-end" data-testid={testId}>
      <Box w={10} h={10} bg={`${color}.6`} style={{ borderRadius: "50%", flexShrink: 0 }} aria-hidden />
      <Text span fw={700} size="sm">
        {label}
      </Text>
    </Group>
  );
}

/**
 * `/membership` (join site, signed-in members): their membership, next payment and history, and
 * what they can do themselves: change how they pay, pause within their pause-day credit, and cancel
 * with the consequences (end date, cooling-off, break fee) shown before they confirm.
 */
export function MembershipRoute() {
  useDocumentTitle("My membership");
  const { data: state, mutate: mutateState } = useRegistration();
  const { data: sub, mutate, error } = useMyMembership();
  if (error) throw error;
  if (!state || sub === undefined) return <PageLoader />;
  return (
    <JoinLayout gym={state.gym} title="My membership">
      {sub ? (
        <Stack gap="md">
          <Summary
            sub={sub}
            onChange={() => void mutate()}
            transfer={
              <BankTransferDetails transfer={state.bank_transfer} gym={state.gym?.name ?? "the gym"} />
            }
          />
          {/* The trial first: the trial-ending email's "Stop my trial" opens this page (issue 38). */}
          <TrialPanel sub={sub} onDone={() => void mutate()} />
          <PassPanel sub={sub} />
          <Payments sub={sub} />
          <Paper withBorder p={{ base: "md", xs: "lg" }}>
            <Stack gap="xs">
              <Title order={2} fz="lg">
                How you pay
              </Title>
              <Text>
                {sub.payment_method === "pif"
                  ? sub.is_awaiting_transfer
                    ? "In full, by bank transfer (not yet received)"
                    : "Paid in full"
                  : state.default_payment_type
                    ? paymentTypeLabel(state.default_payment_type)
                    : sub.payment_method === "stripe_card"
                      ? "By card"
                      : "From your bank account"}
              </Text>
              {sub.payment_method !== "pif" && (
                <Button component={Link} to="/choose-payment-method" variant="outline">
                  Change how I pay
                </Button>
              )}
            </Stack>
          </Paper>
          {sub.actions.pause && sub.pause_days_remaining > 0 && (
            <PauseForm sub={sub} onDone={() => void mutate()} />
          )}
          {state.register_fields && (
            <Preferences
              fields={state.register_fields}
              onSaved={(register_fields) =>
                void mutateState({ ...state, register_fields }, { revalidate: false })
              }
            />
          )}
          <Paper withBorder p={{ base: "md", xs: "lg" }} aria-label="Your login" component="section">
            <Group justify="space-between" wrap="wrap">
              <Text>
                You sign in with <b>{state.email}</b>
              </Text>
              <ChangeLoginEmail current={state.email} />
            </Group>
          </Paper>
          {/* Inside a trial, stopping it is the way out (nothing to pay); after it, cancelling. */}
          {sub.actions.cancel && !sub.trial?.in_trial && (
            <CancelPanel sub={sub} onDone={() => void mutate()} />
          )}
        </Stack>
      ) : state.ended_subscription ? (
        <Stack gap="md">
          <Ended sub={state.ended_subscription} />
          {/* An ended member keeps their payment history and receipts (not only the emails' links). */}
          <Payments sub={state.ended_subscription} />
        </Stack>
      ) : (
        <Alert color="gray" title="No membership">
          You have no live membership at {state.gym.name}.
        </Alert>
      )}
    </JoinLayout>
  );
}

/** A membership that has ended (tour: the page sent them to /take-photo): what it was and its last day. */
function Ended({ sub }: { sub: Subscription }) {
  return (
    <Paper withBorder p={{ base: "md", xs: "lg" }} aria-label="Your membership" component="section">
      <Stack gap={6}>
        <Group justify="space-between">
          <Title order={2} fz="lg">
            {sub.price.offering.name ?? "Membership"}
          </Title>
          <Status label="Ended" color="red" testId="membership-state" />
        </Group>
        <Text>{sub.price.label ?? sub.price.formatted_amount}</Text>
        <Text>
          Your membership ended. Its last day was {formatLongLastDay(sub.cancellation_effective_at)}.
        </Text>
        {sub.balance_owing > 0 && <Text>{sub.formatted_balance_owing} is still owed.</Text>}
        <Group>
          <Button component={Link} to="/rejoin">
            Join again
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function Summary({
  sub,
  onChange,
  transfer,
}: {
  sub: Subscription;
  onChange: () => void;
  /** Where an awaited pay-in-full transfer goes (BankTransferDetails). */
  transfer: ReactNode;
}) {
  const s = standing(sub);
  const removal = useAction(
    async () => {
      await removeMyPause(sub.id);
      onChange();
    },
    { errorSummary: "The pause was not removed" },
  );
  return (
    <Paper withBorder p={{ base: "md", xs: "lg" }} aria-label="Your membership" component="section">
      <Stack gap={6}>
        <Group justify="space-between">
          <Title order={2} fz="lg">
            {sub.price.offering.name ?? "Membership"}
          </Title>
          <Status {...s} testId="membership-state" />
        </Group>
        <Text>{sub.price.label ?? sub.price.formatted_amount}</Text>
        {/* A change still to come: the next payment may already be quoted at the new price. */}
        {sub.pending_price_change && (
          <Text data-testid="price-change">
            From {formatLongDate(sub.pending_price_change.takes_effect_on)}:{" "}
            {sub.pending_price_change.label ?? sub.pending_price_change.formatted_amount} (now{" "}
            {sub.price.label ?? sub.price.formatted_amount})
          </Text>
        )}
        <Text c="dimmed" size="sm">
          Member since {formatLongDate(sub.start_date)}
          {sub.term_ends_at ? ` · term ends ${formatLongDate(sub.term_ends_at)}` : ""}
        </Text>
        {sub.current_period_end && !sub.is_cancelled && (
          <Text>The last day of this period is {formatLongLastDay(sub.current_period_end)}</Text>
        )}
        {sub.pause_start_at && sub.pause_end_at && <Text>Paused {formatPause(sub)}</Text>}
        {sub.actions.remove_pause && (
          <Group>
            <Button
              variant="subtle"
              size="compact-sm"
              loading={removal.running}
              onClick={() => void removal.run()}
            >
              Remove this pause
            </Button>
          </Group>
        )}
        {!sub.cancellation_taken_effect && <NextCharge sub={sub} transfer={transfer} />}
        <Text c="dimmed" size="sm">
          {sub.pause_days_remaining} pause {sub.pause_days_remaining === 1 ? "day" : "days"} left this year
        </Text>
      </Stack>
    </Paper>
  );
}

/**
 * The next money event as core quotes it (`next_charge`): the figure the member will pay, card
 * surcharge included and credit taken off, the same one the emails and the receipt show.
 */
function NextCharge({ sub, transfer }: { sub: Subscription; transfer: ReactNode }) {
  const q = sub.next_charge;
  const credit =
    sub.credit_balance > 0 ? (
      <Text data-testid="credit">
        Credit {sub.formatted_credit_balance}: it pays your next payments first
        {q && q.credit_applied > 0 ? ` (${q.formatted_credit_applied} of the next one)` : ""}.
      </Text>
    ) : null;
  if (!q) return credit;
  if (q.kind === "balance_owing")
    return (
      <>
        <Alert color="orange" title="Payment owed" data-testid="next-payment">
          {q.formatted_total} is owed
          {q.surcharge > 0 ? ` (${q.formatted_amount} and a ${q.formatted_surcharge} card surcharge)` : ""}
          {q.due_on
            ? `; we will try again on ${formatLongDate(q.due_on)} from ${q.payment_method.label}`
            : ""}
          .
        </Alert>
        {credit}
      </>
    );
  if (q.kind === "awaiting_transfer")
    return (
      <Alert color="yellow" title="Awaiting your bank transfer" data-testid="next-payment">
        {q.formatted_total} by bank transfer: your membership is confirmed when the gym receives it.
        {transfer}
      </Alert>
    );
  return (
    <>
      <Text fw={600} data-testid="next-payment">
        {q.title} {q.formatted_total} on {formatLongDate(q.due_on ?? "")}
        {q.credit_applied > 0
          ? q.total === 0
            ? `: paid from your credit (${q.formatted_credit_applied})`
            : ` (${q.formatted_credit_applied} paid from your credit)`
          : ""}
      </Text>
      {credit}
    </>
  );
}

type Fields = NonNullable<ReturnType<typeof useRegistration>["data"]>["register_fields"];
type Flag =
  | "email_notifications_enabled"
  | "payment_reminders"
  | "push_notifications_enabled"
  | "marketing_emails";

const PREFERENCES: { key: Flag; label: string; description: string }[] = [
  {
    key: "email_notifications_enabled",
    label: "Emails about my membership",
    description:
      "Payment reminders and card-expiry notices. Receipts, sign-in codes and notices about a failed payment or a change to what you pay always come.",
  },
  {
    key: "payment_reminders",
    label: "Payment reminders",
    description: "An email a few days before each payment.",
  },
  { key: "push_notifications_enabled", label: "Push notifications", description: "On the gym's app." },
  {
    key: "marketing_emails",
    label: "The gym's news and offers",
    description: "Only if you want them: off unless you turn it on. It changes none of the emails above.",
  },
];

/** The member's notification switches (docs/communications.md "Preferences"), saved as they change. */
function Preferences({ fields, onSaved }: { fields: Fields; onSaved: (fields: Fields) => void }) {
  const save = useAction(async (key: Flag, value: boolean) =>
    onSaved(await saveRegisterFields({ [key]: value })),
  );
  // One change at a time: every switch waits while one is saved.
  const change = save.run;
  return (
    <Paper withBorder p={{ base: "md", xs: "lg" }} component="section" aria-label="Notifications">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          Notifications
        </Title>
        {PREFERENCES.map((p) => (
          <Switch
            key={p.key}
            label={p.label}
            description={p.description}
            checked={fields[p.key]}
            disabled={save.running}
            onChange={(event) => void change(p.key, event.currentTarget.checked)}
          />
        ))}
      </Stack>
    </Paper>
  );
}

function Payments({ sub }: { sub: Subscription }) {
  const payments = [...(sub.payments ?? [])].sort((a, b) => (a.due_on < b.due_on ? 1 : -1));
  if (!payments.length) return null;
  return (
    <Paper withBorder p={{ base: "md", xs: "lg" }}>
      <Stack gap="xs">
        <Title order={2} fz="lg">
          Payments
        </Title>
        <Table aria-label="Payments" verticalSpacing={6}>
          <Table.Tbody>
            {payments.slice(0, 12).map((p) => {
              const st = p.cleared_after_failure
                ? { label: clearedAfterFailureLabel, color: "green" }
                : (STATUS_LABELS[p.status] ?? { label: p.status, color: "gray" });
              return (
                <Table.Tr key={p.id}>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>{formatDate(p.due_on)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(p.total)}</Table.Td>
                  {/* Status and receipt share a cell, so the row fits a 390 px phone unclipped. */}
                  <Table.Td ta="right">
                    <Stack gap={2} align="flex-end">
                      <Status {...st} />
                      {p.status === "sent" && (
                        <Anchor
                          component={Link}
                          to={`/membership/receipts/${p.id}`}
                          size="sm"
                          aria-label={`Receipt for ${formatLongDate(p.due_on)}`}
                        >
                          Receipt
                        </Anchor>
                      )}
                    </Stack>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}

function PauseForm({ sub, onDone }: { sub: Subscription; onDone: () => void }) {
  // The member gives the first and the last paused day, both included; the API takes the day back.
  const form = useZodForm({
    schema: pauseDaysInput,
    mode: "controlled",
    initialValues: { pause_start_at: "", pause_last_day: "" },
  });
  const [done, setDone] = useState(false);
  return (
    <Paper withBorder p={{ base: "md", xs: "lg" }} component="section" aria-label="Pause my membership">
      <form
        noValidate
        onSubmit={submitHandler(
          form,
          async (values) => {
            await pauseMyMembership(sub.id, pauseFromDays(values));
            setDone(true);
            onDone();
          },
          { fieldMap: pauseDaysFieldMap },
        )}
      >
        <Stack gap="sm">
          <Title order={2} fz="lg">
            Pause my membership
          </Title>
          <Text size="sm" c="dimmed">
            No payments fall due while you are paused, and your paid time moves on by the days paused. You
            have {sub.pause_days_remaining} {sub.pause_days_remaining === 1 ? "day" : "days"} left.
          </Text>
          {done && <Alert color="green">Your pause is booked.</Alert>}
          <PauseDaysFields form={form} daysLeft={sub.pause_days_remaining} />
          <Button type="submit" variant="outline">
            Book the pause
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

function CancelPanel({ sub, onDone }: { sub: Subscription; onDone: () => void }) {
  const [preview, setPreview] = useState<CancellationPreview | null>(null);
  const [reason, setReason] = useState<string | null>(null);
  const looking = useAction(async () => setPreview(await previewMyCancellation(sub.id)), {
    errorSummary: "Could not work out what cancelling means",
  });
  const cancelling = useAction(
    async () => {
      await cancelMyMembership(sub.id, reason);
      onDone();
    },
    {
      errorSummary: (error) => (isApiError(error) && error.status === 409 ? undefined : "Cancelling failed"),
    },
  );
  // One at a time: the preview and the cancellation share the busy state.
  const busy = looking.running || cancelling.running;
  const look = () => void (busy || looking.run());
  const confirm = () => void (busy || cancelling.run());
  return (
    <Paper withBorder p={{ base: "md", xs: "lg" }} component="section" aria-label="Cancel my membership">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          Cancel my membership
        </Title>
        {!preview ? (
          <Button variant="subtle" color="red" onClick={look} loading={busy}>
            What happens if I cancel?
          </Button>
        ) : (
          <>
            <Text>
              Your last day as a member would be <b>{formatLongLastDay(preview.takes_effect_on)}</b>, the end
              of the time you have paid for. You keep access until then.
            </Text>
            {preview.in_cooling_off ? (
              <Text>You are inside your cooling-off period: there is no break fee.</Text>
            ) : preview.within_term && preview.break_fee_charge ? (
              <Alert
                color="orange"
                title={`A break fee of ${preview.break_fee_charge.formatted_total} applies`}
                data-testid="break-fee"
              >
                You are inside your term, after the cooling-off period: {preview.break_fee_basis_points / 100}
                % of the {formatMoney(preview.remaining_term_value)} left on your term (
                {preview.formatted_break_fee})
                {preview.break_fee_charge.surcharge > 0
                  ? `, plus a ${preview.break_fee_charge.formatted_surcharge} card surcharge`
                  : ""}
                {preview.break_fee_charge.credit_applied > 0
                  ? `, less ${preview.break_fee_charge.formatted_credit_applied} of your credit`
                  : ""}
                , is charged to {preview.break_fee_charge.payment_method.label} when you cancel.
              </Alert>
            ) : (
              <Text>There is no break fee.</Text>
            )}
            <Text size="sm" c="dimmed">
              You can change your mind until {formatLongDate(preview.undo_cancellation_until)}: ask the front
              desk.
            </Text>
            <Select
              label="Why are you leaving? (optional)"
              data={[...CANCELLATION_REASONS]}
              value={reason}
              onChange={setReason}
              clearable
            />
            <Group>
              <Button color="red" onClick={confirm} loading={busy}>
                {preview.break_fee_charge && preview.break_fee_charge.total > 0
                  ? `Confirm cancellation and pay ${preview.break_fee_charge.formatted_total}`
                  : "Confirm cancellation"}
              </Button>
              <Button variant="default" onClick={() => setPreview(null)}>
                Keep my membership
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}

export { MembershipRoute as Component };
