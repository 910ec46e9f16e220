import { numberFieldProps, submitHandler, useZodForm } from "@gym/web/forms";
import { Alert, Button, Group, NumberInput, Select, SimpleGrid, Stack, Switch } from "@mantine/core";
import { IconInfoCircle } from "@tabler/icons-react";
import { type PriceFormValues, priceFormSchema } from "../api/forms";
import type { OfferingOptions, PriceBody } from "../api/offerings";

export interface PriceFormProps {
  options: Pick<OfferingOptions, "billing_frequencies" | "term_units">;
  initialValues: PriceFormValues;
  submitLabel: string;
  /** A price somebody subscribed to keeps its amount, frequency, joining fee and term. */
  locked?: boolean;
  /** The price's current frequency, offered even if the organisation has since turned it off. */
  currentFrequency?: { value: string; label: string };
  onSubmit: (body: PriceBody) => Promise<unknown>;
  onCancel: () => void;
}

/** Amount and joining fee in dollars (sent as cents), billing frequency, optional term and trial, private. */
export function PriceForm({
  options,
  initialValues,
  submitLabel,
  locked,
  currentFrequency,
  onSubmit,
  onCancel,
}: PriceFormProps) {
  const form = useZodForm({ schema: priceFormSchema, mode: "controlled", initialValues });
  const frequencies =
    currentFrequency && !options.billing_frequencies.some((f) => f.value === currentFrequency.value)
      ? [...options.billing_frequencies, currentFrequency]
      : options.billing_frequencies;

  const handleSubmit = submitHandler(form, (body: PriceBody) => onSubmit(body), {
    errorSummary: "The price was not saved",
  });

  const money = {
    prefix: "$",
    decimalScale: 2,
    fixedDecimalScale: true,
    thousandSeparator: ",",
    min: 0,
    hideControls: true,
  };

  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Price">
      <Stack gap="md">
        {locked && (
          <Alert color="blue" icon={<IconInfoCircle size={18} />}>
            Members are on this price, so only whether it is private and its trial (for members who join from
            now on) can change. To charge a different amount, archive it and add a new price.
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <NumberInput
            label="Amount"
            withAsterisk
            disabled={locked}
            {...money}
            {...form.getInputProps("amount")}
            {...numberFieldProps(form, "amount")}
          />
          <Select
            label="Billing frequency"
            placeholder="Choose a frequency"
            withAsterisk
            disabled={locked}
            data={frequencies}
            allowDeselect={false}
            {...form.getInputProps("billing_frequency")}
          />
        </SimpleGrid>
        <NumberInput
          label="Joining fee"
          description="Charged once, with the first payment."
          disabled={locked}
          {...money}
          {...form.getInputProps("joining_fee")}
          {...numberFieldProps(form, "joining_fee")}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <NumberInput
            label="Term amount"
            description="For a term membership, e.g. 12"
            min={1}
            max={1200}
            allowDecimal={false}
            disabled={locked}
            {...form.getInputProps("term_amount")}
          />
          <Select
            label="Term unit"
            placeholder="No term"
            description="Weeks, months or years"
            clearable
            disabled={locked}
            data={options.term_units}
            {...form.getInputProps("term_unit")}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <NumberInput
            label="Trial days"
            description="A first trial, e.g. 7 (empty: no trial)"
            min={1}
            max={90}
            allowDecimal={false}
            {...form.getInputProps("trial_days")}
          />
          <NumberInput
            label="Trial costs"
            description="For the whole trial (empty: free)"
            {...money}
            {...form.getInputProps("trial_amount")}
            {...numberFieldProps(form, "trial_amount")}
          />
        </SimpleGrid>
        {form.values.billing_frequency === "one_off" && (
          <NumberInput
            label="Visits"
            description="A visit pass: visits it includes, one used per day at the door (empty: not a pass)"
            min={1}
            max={1000}
            allowDecimal={false}
            {...form.getInputProps("visits")}
          />
        )}
        {form.values.billing_frequency === "one_off" && (
          <NumberInput
            label="Valid for (days)"
            description="A pass valid for this many days from its start, instead of a term (empty: its term)"
            min={1}
            max={3650}
            allowDecimal={false}
            {...form.getInputProps("valid_days")}
          />
        )}
        <Switch
          label="Private"
          description="Not shown on the join site; members join on it through a private link."
          {...form.getInputProps("private", { type: "checkbox" })}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
