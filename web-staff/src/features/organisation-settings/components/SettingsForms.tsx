import { communicationsSettingsInput } from "@gym/core/contract/organisation";
import { registrationSettingsInput } from "@gym/core/contract/registration";
import { MESSAGES, requiredText, submitHandler, useZodForm, z } from "@gym/web/forms";
import { toast } from "@gym/web/toast";
import {
  Button,
  Checkbox,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
} from "@mantine/core";
import type { ReactNode } from "react";
import {
  GRACE_UNITS,
  type OrganisationSettings,
  PRICE_FREQUENCIES,
  type RegistrationSettings,
  saveRegistrationSettings,
  saveSection,
} from "../api/settings";

interface SectionProps {
  settings: OrganisationSettings;
  onSaved: (settings: OrganisationSettings) => void;
}

/** A whole number that is required: an empty field says "Value is required". */
const requiredNumber = (max: number) =>
  z
    .union([
      z.number().int("The value must be a whole number").min(0).max(max, MESSAGES.max(max)),
      z.literal(""),
    ])
    .refine((v) => v !== "", {
      error: MESSAGES.required,
    });
const requiredUnit = z
  .string({ error: MESSAGES.required })
  .nullable()
  .refine((v) => Boolean(v), { error: MESSAGES.required });

function SaveRow({ loading, children = "Save" }: { loading: boolean; children?: ReactNode }) {
  return (
    <Group justify="flex-end" mt="md">
      <Button type="submit" loading={loading}>
        {children}
      </Button>
    </Group>
  );
}

export function NameForm({ settings, onSaved }: SectionProps) {
  const form = useZodForm({
    schema: z.object({ name: requiredText() }),
    initialValues: { name: settings.name },
  });
  const submit = submitHandler(form, async (values) => {
    onSaved(await saveSection(settings.id, "", values));
    toast.success("Organisation renamed");
  });
  return (
    <form noValidate onSubmit={submit} aria-label="Organisation name">
      <TextInput label="Name" withAsterisk key={form.key("name")} {...form.getInputProps("name")} />
      <SaveRow loading={form.submitting} />
    </form>
  );
}

export function OfferingPermissionsForm({ settings, onSaved }: SectionProps) {
  const form = useZodForm({
    schema: z.object({ enable_offerings: z.boolean(), non_stop: z.boolean(), limited_access: z.boolean() }),
    initialValues: settings.offering_permissions,
  });
  const submit = submitHandler(form, async (values) => {
    onSaved(await saveSection(settings.id, "/offering-permissions", values));
    toast.success("Offering permissions saved");
  });
  return (
    <form noValidate onSubmit={submit} aria-label="Offering permissions">
      <Stack gap="sm">
        <Switch
          label="Enable offerings"
          key={form.key("enable_offerings")}
          {...form.getInputProps("enable_offerings", { type: "checkbox" })}
        />
        <Switch
          label="24/7 access (non-stop)"
          key={form.key("non_stop")}
          {...form.getInputProps("non_stop", { type: "checkbox" })}
        />
        <Switch
          label="Limited hours"
          key={form.key("limited_access")}
          {...form.getInputProps("limited_access", { type: "checkbox" })}
        />
      </Stack>
      <SaveRow loading={form.submitting} />
    </form>
  );
}

export function PriceFrequenciesForm({ settings, onSaved }: SectionProps) {
  const form = useZodForm({
    schema: z.object({
      price_frequencies: z.array(z.string()).min(1, { error: "Select at least one frequency" }),
    }),
    initialValues: { price_frequencies: settings.price_frequencies },
  });
  const submit = submitHandler(form, async (values) => {
    onSaved(await saveSection(settings.id, "/price-frequencies", values));
    toast.success("Price frequencies saved");
  });
  return (
    <form noValidate onSubmit={submit} aria-label="Price frequencies">
      <Checkbox.Group
        label="Frequencies new prices may use"
        key={form.key("price_frequencies")}
        {...form.getInputProps("price_frequencies")}
      >
        <SimpleGrid cols={{ base: 2, sm: 3 }} mt="xs">
          {PRICE_FREQUENCIES.map((f) => (
            <Checkbox key={f.value} value={f.value} label={f.label} />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
      <SaveRow loading={form.submitting} />
    </form>
  );
}

/** A grace period: value and unit, both required (spec 000 §5). */
export function GraceForm({
  settings,
  onSaved,
  kind,
}: SectionProps & { kind: "failed_payment" | "term_membership" }) {
  const valueKey = `${kind}_grace_period` as const;
  const unitKey = `${kind}_grace_period_unit` as const;
  const form = useZodForm({
    schema: z.object({ value: requiredNumber(365), unit: requiredUnit }),
    initialValues: { value: settings[valueKey] as number | "", unit: settings[unitKey] as string | null },
  });
  const submit = submitHandler(
    form,
    async ({ value, unit }) => {
      onSaved(
        await saveSection(
          settings.id,
          kind === "failed_payment" ? "/grace-period" : "/term-membership-grace-period",
          { [valueKey]: value, [unitKey]: unit },
        ),
      );
      toast.success("Grace period saved");
    },
    { fieldMap: { [valueKey]: "value", [unitKey]: "unit" } },
  );
  const label = kind === "failed_payment" ? "Failed-payment grace period" : "Term-membership grace period";
  return (
    <form noValidate onSubmit={submit} aria-label={label}>
      <SimpleGrid cols={2}>
        <NumberInput
          label={label}
          withAsterisk
          min={0}
          allowDecimal={false}
          key={form.key("value")}
          {...form.getInputProps("value")}
        />
        <Select
          label="Unit"
          withAsterisk
          data={GRACE_UNITS}
          allowDeselect={false}
          key={form.key("unit")}
          {...form.getInputProps("unit")}
        />
      </SimpleGrid>
      <SaveRow loading={form.submitting} />
    </form>
  );
}

const percentField = z
  .union([z.number().min(0).max(100, MESSAGES.max(100)), z.literal("")])
  .refine((v) => v !== "", { error: MESSAGES.required });

/** Retry schedule, cooling-off, pause-day credit, card surcharge and break fee (docs/billing.md "Settings"). */
export function BillingSettingsForm({ settings, onSaved }: SectionProps) {
  const form = useZodForm({
    schema: z.object({
      payment_retry_days: z
        .string()
        .trim()
        .refine((v) => v === "" || /^\d+(\s*,\s*\d+)*$/.test(v), {
          error: "List whole days separated by commas, e.g. 1, 3, 5",
        }),
      cooling_off_days: requiredNumber(60),
      pause_day_credit_days: requiredNumber(365),
      card_surcharge_percent: percentField,
      card_surcharge_fixed: z
        .union([z.number().min(0).max(100, MESSAGES.max(100)), z.literal("")])
        .refine((v) => v !== "", { error: MESSAGES.required }),
      break_fee_percent: percentField,
    }),
    initialValues: {
      payment_retry_days: settings.payment_retry_days.join(", "),
      cooling_off_days: settings.cooling_off_days as number | "",
      pause_day_credit_days: settings.pause_day_credit_days as number | "",
      card_surcharge_percent: (settings.card_surcharge_basis_points / 100) as number | "",
      card_surcharge_fixed: (settings.card_surcharge_fixed_cents / 100) as number | "",
      break_fee_percent: (settings.break_fee_basis_points / 100) as number | "",
    },
  });
  const submit = submitHandler(
    form,
    async (values) => {
      const body = {
        payment_retry_days: values.payment_retry_days
          ? values.payment_retry_days.split(",").map((d) => Number(d.trim()))
          : [],
        cooling_off_days: values.cooling_off_days,
        pause_day_credit_days: values.pause_day_credit_days,
        card_surcharge_basis_points: Math.round(Number(values.card_surcharge_percent) * 100),
        card_surcharge_fixed_cents: Math.round(Number(values.card_surcharge_fixed) * 100),
        break_fee_basis_points: Math.round(Number(values.break_fee_percent) * 100),
      };
      onSaved(await saveSection(settings.id, "/billing-settings", body));
      toast.success("Billing settings saved");
    },
    {
      fieldMap: {
        card_surcharge_basis_points: "card_surcharge_percent",
        card_surcharge_fixed_cents: "card_surcharge_fixed",
        break_fee_basis_points: "break_fee_percent",
      },
    },
  );
  return (
    <form noValidate onSubmit={submit} aria-label="Billing settings">
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        <TextInput
          label="Retry failed payments after (days)"
          description="e.g. 1, 3, 5"
          key={form.key("payment_retry_days")}
          {...form.getInputProps("payment_retry_days")}
        />
        <NumberInput
          label="Cooling-off period (days)"
          withAsterisk
          min={0}
          allowDecimal={false}
          key={form.key("cooling_off_days")}
          {...form.getInputProps("cooling_off_days")}
        />
        <NumberInput
          label="Pause-day credit (days a year)"
          withAsterisk
          min={0}
          allowDecimal={false}
          key={form.key("pause_day_credit_days")}
          {...form.getInputProps("pause_day_credit_days")}
        />
        <NumberInput
          label="Card surcharge (%)"
          withAsterisk
          min={0}
          max={100}
          decimalScale={2}
          key={form.key("card_surcharge_percent")}
          {...form.getInputProps("card_surcharge_percent")}
        />
        <NumberInput
          label="Card surcharge fixed amount ($)"
          withAsterisk
          min={0}
          decimalScale={2}
          fixedDecimalScale
          prefix="$"
          key={form.key("card_surcharge_fixed")}
          {...form.getInputProps("card_surcharge_fixed")}
        />
        <NumberInput
          label="Break fee (%)"
          withAsterisk
          min={0}
          max={100}
          decimalScale={2}
          key={form.key("break_fee_percent")}
          {...form.getInputProps("break_fee_percent")}
        />
      </SimpleGrid>
      <SaveRow loading={form.submitting} />
    </form>
  );
}

/** Receipts' legal name and GST number, and the payment reminder (docs/communications.md). */
export function CommunicationsSettingsForm({ settings, onSaved }: SectionProps) {
  const form = useZodForm({
    schema: communicationsSettingsInput,
    initialValues: {
      legal_name: settings.legal_name ?? "",
      gst_number: settings.gst_number ?? "",
      payment_reminder_days: settings.payment_reminder_days as number | "",
    },
  });
  const submit = submitHandler(form, async (values) => {
    onSaved(await saveSection(settings.id, "/communications", values));
    toast.success("Receipts and reminders saved");
  });
  return (
    <form noValidate onSubmit={submit} aria-label="Receipts and reminders">
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        <TextInput
          label="Legal name on receipts"
          description={`Blank: ${settings.name}`}
          key={form.key("legal_name")}
          {...form.getInputProps("legal_name")}
        />
        <TextInput
          label="GST number"
          description="Blank when not registered for GST (receipts then show no GST)"
          key={form.key("gst_number")}
          {...form.getInputProps("gst_number")}
        />
        <NumberInput
          label="Payment reminder (days before)"
          description="0 sends no reminders"
          withAsterisk
          min={0}
          max={30}
          allowDecimal={false}
          key={form.key("payment_reminder_days")}
          {...form.getInputProps("payment_reminder_days")}
        />
      </SimpleGrid>
      <SaveRow loading={form.submitting} />
    </form>
  );
}

/**
 * Joining online: the youngest age to join on the join site (an age-bypass link still lets younger
 * people join) and the address of the membership terms and conditions the confirm page links.
 */
export function RegistrationSettingsForm({
  organisationId,
  settings,
  onSaved,
}: {
  organisationId: string;
  settings: RegistrationSettings;
  onSaved: (settings: RegistrationSettings) => void;
}) {
  const form = useZodForm({
    schema: z.object({
      min_registration_age: requiredNumber(100),
      terms_url: registrationSettingsInput.shape.terms_url,
    }),
    initialValues: {
      min_registration_age: settings.min_registration_age as number | "",
      terms_url: settings.terms_url ?? "",
    },
  });
  const submit = submitHandler(form, async (values) => {
    onSaved(
      await saveRegistrationSettings(organisationId, {
        min_registration_age: Number(values.min_registration_age),
        terms_url: values.terms_url ?? null,
      }),
    );
    toast.success("Joining online saved");
  });
  return (
    <form noValidate onSubmit={submit} aria-label="Joining online">
      <Stack gap="md">
        <NumberInput
          label="Minimum age to join (years)"
          description="Younger people are refused on the join site unless they use an age-bypass link."
          withAsterisk
          min={0}
          max={100}
          allowDecimal={false}
          key={form.key("min_registration_age")}
          {...form.getInputProps("min_registration_age")}
        />
        <TextInput
          label="Membership terms and conditions (web address)"
          description="An https:// page members open before they confirm. Blank: the confirm page says what they agree to instead."
          placeholder="https://"
          type="url"
          inputMode="url"
          key={form.key("terms_url")}
          {...form.getInputProps("terms_url")}
        />
      </Stack>
      <SaveRow loading={form.submitting} />
    </form>
  );
}
