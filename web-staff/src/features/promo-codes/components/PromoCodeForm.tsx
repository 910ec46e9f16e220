import type { Offering } from "@gym/core/contract/offering";
import type { PromoCodeInput, PromoCodeUpdate } from "@gym/core/contract/promo";
import { numberFieldProps, submitHandler, useZodForm } from "@gym/web/forms";
import { DateField } from "@gym/web/forms/DateField";
import {
  Button,
  Group,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { newPromoFormSchema, type PromoFormValues, promoFieldMap, promoTermsFormSchema } from "../api/forms";

export interface PromoCodeFormProps {
  initialValues: PromoFormValues;
  /** Changing a code's terms: its name is shown, not editable (docs/offers.md "Making a code"). */
  editing?: boolean;
  gyms: { id: string; name: string }[];
  offerings: Offering[];
  submitLabel: string;
  onSubmit: (body: PromoCodeInput | PromoCodeUpdate) => Promise<unknown>;
  onCancel: () => void;
}

/** Dollar and percent inputs: two decimals, no spinner. */
const decimals = { decimalScale: 2, min: 0, hideControls: true } as const;
const count = { allowDecimal: false, min: 1, hideControls: true } as const;

/**
 * A promo code's terms: percent or amount off, for how many periods, a use limit, its first and
 * last day (day first, as every date), a gym, and the memberships and prices it is for.
 */
export function PromoCodeForm({
  initialValues,
  editing,
  gyms,
  offerings,
  submitLabel,
  onSubmit,
  onCancel,
}: PromoCodeFormProps) {
  const form = useZodForm({
    schema: editing ? promoTermsFormSchema : newPromoFormSchema,
    mode: "controlled",
    initialValues,
  });
  const handleSubmit = submitHandler(form, (body: PromoCodeInput | PromoCodeUpdate) => onSubmit(body), {
    fieldMap: promoFieldMap,
    errorSummary: "The code was not saved",
  });
  const percent = form.getValues().kind === "percent";

  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Promo code">
      <Stack gap="md">
        <TextInput
          label="Code"
          description={
            editing
              ? "A code's name never changes: archive it and make another."
              : "What members type, like BF50."
          }
          withAsterisk={!editing}
          disabled={editing}
          autoCapitalize="characters"
          spellCheck={false}
          key={form.key("code")}
          {...form.getInputProps("code")}
        />
        <Stack gap={6}>
          <Text size="sm" fw={500} id="promo-kind">
            Discount
          </Text>
          <SegmentedControl
            aria-labelledby="promo-kind"
            data={[
              { value: "percent", label: "Percent off" },
              { value: "fixed", label: "Amount off" },
            ]}
            key={form.key("kind")}
            {...form.getInputProps("kind")}
          />
        </Stack>
        {percent ? (
          <NumberInput
            label="Percent off"
            suffix="%"
            max={100}
            withAsterisk
            {...decimals}
            key={form.key("percent")}
            {...form.getInputProps("percent")}
            {...numberFieldProps(form, "percent")}
          />
        ) : (
          <NumberInput
            label="Amount off each period"
            prefix="$"
            fixedDecimalScale
            thousandSeparator=","
            withAsterisk
            {...decimals}
            key={form.key("amount_off")}
            {...form.getInputProps("amount_off")}
            {...numberFieldProps(form, "amount_off")}
          />
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <NumberInput
            label="For the first … periods"
            description="Empty: every period"
            {...count}
            key={form.key("periods")}
            {...form.getInputProps("periods")}
            {...numberFieldProps(form, "periods")}
          />
          <NumberInput
            label="Use limit"
            description="Joins in all; empty: no limit"
            thousandSeparator=","
            {...count}
            key={form.key("use_limit")}
            {...form.getInputProps("use_limit")}
            {...numberFieldProps(form, "use_limit")}
          />
          <DateField
            label="First day"
            description="Empty: usable at once"
            clearable
            key={form.key("starts_on")}
            {...form.getInputProps("starts_on")}
          />
          <DateField
            label="Last day"
            description="Empty: no end"
            clearable
            key={form.key("ends_on")}
            {...form.getInputProps("ends_on")}
          />
        </SimpleGrid>
        <Select
          label="Gym"
          allowDeselect={false}
          data={[{ value: "", label: "Every gym" }, ...gyms.map((g) => ({ value: g.id, label: g.name }))]}
          key={form.key("gym_id")}
          {...form.getInputProps("gym_id")}
        />
        <MultiSelect
          label="Only for these memberships"
          description="Empty: every membership"
          searchable
          data={offerings.map((o) => ({ value: o.id, label: o.name }))}
          key={form.key("offering_ids")}
          {...form.getInputProps("offering_ids")}
        />
        <MultiSelect
          label="Only for these prices"
          description="Empty: every price"
          searchable
          data={offerings.flatMap((o) =>
            o.prices.map((p) => ({ value: p.id, label: `${o.name}: ${p.label}` })),
          )}
          key={form.key("price_ids")}
          {...form.getInputProps("price_ids")}
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
