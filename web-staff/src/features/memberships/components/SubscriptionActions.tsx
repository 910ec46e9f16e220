import { messages } from "@gym/core/contract/fields";
import {
  CANCELLATION_REASONS,
  manualPaymentInput,
  PIF_PAYMENT_METHODS,
  pauseInput,
} from "@gym/core/contract/lifecycle";
import { errorMessage } from "@gym/web/api";
import { formatDate, parseNzDate } from "@gym/web/format";
import { numberFieldProps, submitHandler, useZodForm } from "@gym/web/forms";
import { toast, toastApiError } from "@gym/web/toast";
import {
  Alert,
  Button,
  Group,
  Loader,
  Modal,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
} from "@mantine/core";
import { DateInput } from "@mantine/dates";
import { IconAlertTriangle, IconCalendar } from "@tabler/icons-react";
import { type ReactNode, useState } from "react";
import { z } from "zod";
import {
  cancelSubscription,
  pauseSubscription,
  recordManualPayment,
  removePause,
  type Subscription,
  startNow,
  undoCancellation,
  useCancellationPreview,
  useStartEarlyData,
} from "../api/memberships";

type Action = "pause" | "remove-pause" | "cancel" | "undo" | "start-now" | "manual-payment";

const methodLabels: Record<(typeof PIF_PAYMENT_METHODS)[number], string> = {
  eftpos: "Eftpos",
  cash: "Cash",
  bank_transfer: "Bank transfer",
};
export const paymentMethodOptions = PIF_PAYMENT_METHODS.map((value) => ({
  value,
  label: methodLabels[value],
}));

const dateProps = {
  placeholder: "DD/MM/YYYY",
  valueFormat: "DD/MM/YYYY",
  dateParser: parseNzDate,
  leftSection: <IconCalendar size={16} />,
  withAsterisk: true,
};

/** Whole days from one "YYYY-MM-DD" to another. */
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

interface ActionProps {
  subscription: Subscription;
  done: (next: Subscription, message: string) => void;
  close: () => void;
}

function Footer({ close, children }: { close: () => void; children: ReactNode }) {
  return (
    <Group justify="flex-end" mt="md">
      <Button variant="default" onClick={close}>
        Keep as is
      </Button>
      {children}
    </Group>
  );
}

function PauseForm({ subscription: s, done, close }: ActionProps) {
  const form = useZodForm({
    schema: pauseInput,
    mode: "controlled",
    initialValues: { pause_start_at: "", pause_end_at: "" },
  });
  const { pause_start_at: start, pause_end_at: end } = form.getValues();
  const days = start && end ? daysBetween(start, end) : null;
  const handleSubmit = submitHandler(
    form,
    async (values) => done(await pauseSubscription(s.id, values), "Pause saved"),
    { errorSummary: "The pause was not saved" },
  );
  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Pause">
      <Stack gap="sm">
        <Text size="sm">
          No payment falls due during a pause, and the period is extended by the paused days.{" "}
          <strong>{s.pause_days_remaining} pause days</strong> are left.
        </Text>
        <DateInput label="First paused day" {...dateProps} {...form.getInputProps("pause_start_at")} />
        <DateInput
          label="Back on"
          description="The first day the membership runs again"
          {...dateProps}
          {...form.getInputProps("pause_end_at")}
        />
        {days !== null && days > 0 && (
          <Text size="sm" c={days > s.pause_days_remaining ? "red" : undefined}>
            Uses {days} of {s.pause_days_remaining} pause days.
          </Text>
        )}
        <Footer close={close}>
          <Button type="submit" loading={form.submitting}>
            Pause membership
          </Button>
        </Footer>
      </Stack>
    </form>
  );
}

function CancelForm({ subscription: s, done, close }: ActionProps) {
  const [immediate, setImmediate] = useState(false);
  const [reasons, setReasons] = useState<string[]>([]);
  const [comments, setComments] = useState("");
  const [saving, setSaving] = useState(false);
  const { data: preview, error } = useCancellationPreview(s.id, immediate);
  const confirm = async () => {
    setSaving(true);
    try {
      const next = await cancelSubscription(s.id, {
        immediate,
        cancellation_reasons: reasons,
        cancellation_comments: comments || undefined,
      });
      done(next, "Membership cancelled");
    } catch (failure) {
      toastApiError(failure, "The membership was not cancelled");
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack gap="sm">
      <Switch
        label="Cancel immediately"
        description="Otherwise the membership runs to the end of the paid period."
        checked={immediate}
        onChange={(event) => setImmediate(event.currentTarget.checked)}
      />
      <MultiSelect label="Reasons" data={[...CANCELLATION_REASONS]} value={reasons} onChange={setReasons} />
      <Textarea
        label="Comments"
        rows={2}
        value={comments}
        onChange={(e) => setComments(e.currentTarget.value)}
      />
      {error && <Alert color="red">{errorMessage(error)}</Alert>}
      {!preview && !error && <Loader size="sm" aria-label="Working out what cancelling means" />}
      {preview && (
        <Alert
          color={preview.break_fee > 0 ? "orange" : "blue"}
          icon={preview.break_fee > 0 ? <IconAlertTriangle size={18} /> : undefined}
          title={`Takes effect ${formatDate(preview.takes_effect_on)}`}
        >
          <Stack gap={4}>
            <Text size="sm">
              Door access continues until then. Staff can undo it until{" "}
              {formatDate(preview.undo_cancellation_until)}.
            </Text>
            {preview.in_cooling_off && <Text size="sm">Inside the cooling-off period: no break fee.</Text>}
            {preview.break_fee > 0 && (
              <Text size="sm" fw={600}>
                A break fee of {preview.formatted_break_fee} is charged (
                {preview.break_fee_basis_points / 100}% of the term still to run).
              </Text>
            )}
          </Stack>
        </Alert>
      )}
      <Footer close={close}>
        <Button color="red" onClick={confirm} loading={saving} disabled={!preview}>
          {preview && preview.break_fee > 0
            ? `Cancel and charge ${preview.formatted_break_fee}`
            : "Cancel membership"}
        </Button>
      </Footer>
    </Stack>
  );
}

function StartNowForm({ subscription: s, done, close }: ActionProps) {
  const { data, error } = useStartEarlyData(s.id);
  const [saving, setSaving] = useState(false);
  const confirm = async () => {
    setSaving(true);
    try {
      done(await startNow(s.id), "Membership started today");
    } catch (failure) {
      toastApiError(failure, "The membership was not started");
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack gap="sm">
      {error && <Alert color="red">{errorMessage(error)}</Alert>}
      {!data && !error && <Loader size="sm" />}
      {data && (
        <Text size="sm">
          Starts {formatDate(data.start_date)} instead of {formatDate(data.current_start_date)}.
          {data.first_payment &&
            ` The first payment is ${data.first_payment.formatted_amount} on ${formatDate(data.first_payment.due_on)}${
              data.first_payment.is_pro_rata ? " (pro-rata)" : ""
            }.`}
        </Text>
      )}
      <Footer close={close}>
        <Button onClick={confirm} loading={saving} disabled={!data?.allowed}>
          Start today
        </Button>
      </Footer>
    </Stack>
  );
}

/** The manual payment form in dollars; submitted as the contract's cents. */
const manualPaymentForm = z.object({
  amount: z
    .number({ error: messages.required })
    .positive("Enter an amount.")
    .transform((dollars) => Math.round(dollars * 100)),
  payment_method: manualPaymentInput.shape.payment_method,
});

function ManualPaymentForm({ subscription: s, done, close }: ActionProps) {
  const form = useZodForm({
    schema: manualPaymentForm,
    mode: "controlled",
    initialValues: {
      amount: (s.balance_owing > 0 ? s.balance_owing / 100 : "") as number,
      payment_method: "eftpos" as const,
    },
  });
  const handleSubmit = submitHandler(
    form,
    async (values) => done(await recordManualPayment(s.id, values), "Payment recorded"),
    { errorSummary: "The payment was not recorded" },
  );
  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Manual payment">
      <Stack gap="sm">
        <Text size="sm">
          {s.balance_owing > 0
            ? `${s.formatted_balance_owing} is owing; it is cleared first, the rest is credit for later payments.`
            : "Nothing is owing: the amount is credit for later payments."}
        </Text>
        <NumberInput
          label="Amount"
          prefix="$"
          decimalScale={2}
          fixedDecimalScale
          min={0}
          hideControls
          withAsterisk
          {...form.getInputProps("amount")}
          {...numberFieldProps(form, "amount")}
        />
        <Select
          label="Paid by"
          data={paymentMethodOptions}
          allowDeselect={false}
          withAsterisk
          {...form.getInputProps("payment_method")}
        />
        <Footer close={close}>
          <Button type="submit" loading={form.submitting}>
            Record payment
          </Button>
        </Footer>
      </Stack>
    </form>
  );
}

function ConfirmSimple({
  text,
  label,
  run,
  message,
  done,
  close,
}: ActionProps & { text: string; label: string; run: () => Promise<Subscription>; message: string }) {
  const [saving, setSaving] = useState(false);
  const confirm = async () => {
    setSaving(true);
    try {
      done(await run(), message);
    } catch (failure) {
      toastApiError(failure, "Nothing was changed");
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack gap="sm">
      <Text size="sm">{text}</Text>
      <Footer close={close}>
        <Button onClick={confirm} loading={saving}>
          {label}
        </Button>
      </Footer>
    </Stack>
  );
}

const titles: Record<Action, string> = {
  pause: "Pause membership",
  "remove-pause": "Remove the pause",
  cancel: "Cancel membership",
  undo: "Undo cancellation",
  "start-now": "Start the membership today",
  "manual-payment": "Record a payment",
};

/**
 * The lifecycle actions, each offered only when the spec's rule allows it (001 §4), each behind a
 * dialog that states its money consequence before anything changes.
 */
export function SubscriptionActions({
  subscription: s,
  onChanged,
}: {
  subscription: Subscription;
  onChanged: (next: Subscription) => void;
}) {
  const [open, setOpen] = useState<Action | null>(null);
  const close = () => setOpen(null);
  const done = (next: Subscription, message: string) => {
    toast.success(message);
    setOpen(null);
    onChanged(next);
  };
  const isPif = s.payment_method === "pif";
  const cancelledForGood = s.is_cancelled && !s.undo_cancellation_possible;
  const offered: Action[] = [];
  if (!s.is_cancelled && !isPif && !s.pause_start_at) offered.push("pause");
  if (s.pause_start_at && !s.is_cancelled) offered.push("remove-pause");
  if (s.start_now_offered) offered.push("start-now");
  if (!cancelledForGood && !isPif) offered.push("manual-payment");
  if (!s.is_cancelled) offered.push("cancel");
  if (s.undo_cancellation_possible) offered.push("undo");
  if (!offered.length) return null;

  const props = { subscription: s, done, close };
  return (
    <>
      <Group gap="xs">
        {offered.map((action) => (
          <Button
            key={action}
            size="xs"
            variant={action === "cancel" ? "light" : "default"}
            color={action === "cancel" ? "red" : undefined}
            onClick={() => setOpen(action)}
          >
            {titles[action].replace(" membership", "").replace("Start the membership today", "Start now")}
          </Button>
        ))}
      </Group>
      <Modal opened={open !== null} onClose={close} title={open ? titles[open] : ""} centered>
        {open === "pause" && <PauseForm {...props} />}
        {open === "cancel" && <CancelForm {...props} />}
        {open === "start-now" && <StartNowForm {...props} />}
        {open === "manual-payment" && <ManualPaymentForm {...props} />}
        {open === "remove-pause" && (
          <ConfirmSimple
            {...props}
            text={`The pause from ${formatDate(s.pause_start_at)} to ${formatDate(s.pause_end_at)} is removed and its days are given back; payments fall due as before.`}
            label="Remove pause"
            message="Pause removed"
            run={() => removePause(s.id)}
          />
        )}
        {open === "undo" && (
          <ConfirmSimple
            {...props}
            text="The membership carries on as before the cancellation, with its payments."
            label="Undo cancellation"
            message="Cancellation undone"
            run={() => undoCancellation(s.id)}
          />
        )}
      </Modal>
    </>
  );
}
