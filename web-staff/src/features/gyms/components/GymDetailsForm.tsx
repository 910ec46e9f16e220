import { MESSAGES, requiredText, submitHandler, useZodForm, z } from "@gym/web/forms";
import { toast } from "@gym/web/toast";
import { Button, Group, NumberInput, SimpleGrid, TextInput } from "@mantine/core";
import { type Gym, updateGym } from "../api/gyms";

const percent = z.union([z.number().min(0).max(100, MESSAGES.max(100)), z.literal("")]);
const schema = z.object({
  name: requiredText(),
  price_change_notification_reply_to: z
    .string()
    .trim()
    .refine((v) => v === "" || z.email().safeParse(v).success, { error: MESSAGES.email }),
  break_fee_percent: percent,
  card_surcharge_percent: percent,
  card_surcharge_fixed: z.union([z.number().min(0).max(100, MESSAGES.max(100)), z.literal("")]),
});

const toBasisPoints = (value: number | "") => (value === "" ? null : Math.round(value * 100));
const fromBasisPoints = (bp: number | null) => (bp === null ? "" : bp / 100);

/** Name, the reply-to address for price-change emails, and the gym's own surcharge and break fee. */
export function GymDetailsForm({ gym, onSaved }: { gym: Gym; onSaved: (gym: Gym) => void }) {
  const form = useZodForm({
    schema,
    initialValues: {
      name: gym.name,
      price_change_notification_reply_to: gym.price_change_notification_reply_to ?? "",
      break_fee_percent: fromBasisPoints(gym.break_fee_basis_points) as number | "",
      card_surcharge_percent: fromBasisPoints(gym.card_surcharge_basis_points) as number | "",
      card_surcharge_fixed: (gym.card_surcharge_fixed_cents === null
        ? ""
        : gym.card_surcharge_fixed_cents / 100) as number | "",
    },
  });
  const defaults = gym.organisation_defaults;
  const handleSubmit = submitHandler(
    form,
    async (values) => {
      const saved = await updateGym(gym.id, {
        name: values.name,
        price_change_notification_reply_to: values.price_change_notification_reply_to || null,
        break_fee_basis_points: toBasisPoints(values.break_fee_percent),
        card_surcharge_basis_points: toBasisPoints(values.card_surcharge_percent),
        card_surcharge_fixed_cents:
          values.card_surcharge_fixed === "" ? null : Math.round(values.card_surcharge_fixed * 100),
      });
      onSaved(saved);
      toast.success("Gym details saved");
    },
    {
      errorSummary: "The gym was not saved",
      fieldMap: {
        break_fee_basis_points: "break_fee_percent",
        card_surcharge_basis_points: "card_surcharge_percent",
        card_surcharge_fixed_cents: "card_surcharge_fixed",
      },
    },
  );
  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Gym details">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Name"
          withAsterisk
          maxLength={120}
          key={form.key("name")}
          {...form.getInputProps("name")}
        />
        <TextInput
          label="Reply-to address for price-change emails"
          type="email"
          key={form.key("price_change_notification_reply_to")}
          {...form.getInputProps("price_change_notification_reply_to")}
        />
        <NumberInput
          label="Break fee (%)"
          description={`Leave empty for the organisation's ${defaults.break_fee_basis_points / 100}%`}
          min={0}
          max={100}
          decimalScale={2}
          key={form.key("break_fee_percent")}
          {...form.getInputProps("break_fee_percent")}
        />
        <NumberInput
          label="Card surcharge (%)"
          description={`Leave empty for the organisation's ${defaults.card_surcharge_basis_points / 100}%`}
          min={0}
          max={100}
          decimalScale={2}
          key={form.key("card_surcharge_percent")}
          {...form.getInputProps("card_surcharge_percent")}
        />
        <NumberInput
          label="Card surcharge fixed amount ($)"
          description={`Leave empty for the organisation's $${(defaults.card_surcharge_fixed_cents / 100).toFixed(2)}`}
          min={0}
          max={100}
          decimalScale={2}
          fixedDecimalScale
          prefix="$"
          key={form.key("card_surcharge_fixed")}
          {...form.getInputProps("card_surcharge_fixed")}
        />
      </SimpleGrid>
      <Group justify="flex-end" mt="md">
        <Button type="submit" loading={form.submitting}>
          Save details
        </Button>
      </Group>
    </form>
  );
}
