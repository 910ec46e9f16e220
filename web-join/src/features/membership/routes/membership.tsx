import {
  CANCELLATION_REASONS,
  type CancellationPreview,
  pauseDaysFieldMap,
  pauseDaysInput,
  pauseFromDays,
} from "@gym/core/contract/lifecycle";
import { nextPaymentLabel } from "@gym/core/contract/payment";
import { isApiError } from "@gym/web/api";
import { formatDate, formatLongDate, formatMoney, formatPause } from "@gym/web/format";
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
import { useState } from "react";
import { Link } from "react-router-dom";
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
      : { label: `Ends ${formatLongDate(sub.cancellation_effective_at ?? "")}`, color: "orange" };
  if (sub.in_grace_period) return { label: "Payment owed", color: "orange" };
  if (sub.is_paused) return { label: "Paused", color: "yellow" };
  if (sub.pause_in_future) return { label: "Pause booked", color: "yellow" };
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
          <Summary sub={sub} onChange={() => void mutate()} />
          <Payments sub={sub} />
          <Paper withBorder p={{ base: "md", xs: "lg" }}>
            <Stack gap="xs">
              <Title order={2} fz="lg">
                How you pay
              </Title>
              <Text>
                {sub.payment_method === "pif"
                  ? "Paid in full"
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
          {sub.actions.cancel && <CancelPanel sub={sub} onDone={() => void mutate()} />}
        </Stack>
      ) : (
        <Alert color="gray" title="No membership">
          You have no live membership at {state.gym.name}.
        </Alert>
      )}
    </JoinLayout>
  );
}

function Summary({ sub, onChange }: { sub: Subscription; onChange: () => void }) {
  const s = standing(sub);
  const removal = useAction(
    async () => {
      await removeMyPause(sub.id);
      onChange();
    },
    { errorSummary: "The pause was not removed" },
  );
  const next = sub.upcoming_payment;
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
        <Text c="dimmed" size="sm">
          Member since {formatLongDate(sub.start_date)}
          {sub.term_ends_at ? ` · term ends ${formatLongDate(sub.term_ends_at)}` : ""}
        </Text>
        {sub.current_period_end && !sub.is_cancelled && (
          <Text>This period ends {formatLongDate(sub.current_period_end)}</Text>
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
        {next && !sub.cancellation_taken_effect && (
          <Text fw={600} data-testid="next-payment">
            {nextPaymentLabel(next)} {formatMoney(next.total)} on {formatLongDate(next.due_on)}
          </Text>
        )}
        {sub.balance_owing > 0 && (
          <Alert color="orange" title="Payment owed">
            {sub.formatted_balance_owing} is owed
            {sub.next_retry_on ? `; we will try again on ${formatLongDate(sub.next_retry_on)}` : ""}.
          </Alert>
        )}
        <Text c="dimmed" size="sm">
          {sub.pause_days_remaining} pause {sub.pause_days_remaining === 1 ? "day" : "days"} left this year
        </Text>
      </Stack>
    </Paper>
  );
}

type Fields = NonNullable<ReturnType<typeof useRegistration>["data"]>["register_fields"];
type Flag = "email_notifications_enabled" | "payment_reminders" | "push_notifications_enabled";

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
              const st = STATUS_LABELS[p.status] ?? { label: p.status, color: "gray" };
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
              Your membership would end on <b>{formatLongDate(preview.takes_effect_on)}</b>, the end of the
              time you have paid for. You keep access until then.
            </Text>
            {preview.in_cooling_off ? (
              <Text>You are inside your cooling-off period: there is no break fee.</Text>
            ) : preview.within_term && preview.break_fee > 0 ? (
              <Alert color="orange" title={`A break fee of ${preview.formatted_break_fee} applies`}>
                You are inside your term, after the cooling-off period: {preview.break_fee_basis_points / 100}
                % of the {formatMoney(preview.remaining_term_value)} left on your term is charged when you
                cancel.
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
                Confirm cancellation
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
