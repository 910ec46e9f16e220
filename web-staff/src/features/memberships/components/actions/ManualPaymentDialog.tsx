import { messages } from "@gym/core/contract/fields";
import { manualPaymentInput } from "@gym/core/contract/lifecycle";
import { numberFieldProps, submitHandler, useZodForm } from "@gym/web/forms";
import { Button, NumberInput, Select, Stack, Text } from "@mantine/core";
import { z } from "zod";
import { recordManualPayment } from "../../api/memberships";
import { paymentMethodOptions } from "../payment-methods";
import { type ActionProps, Footer } from "./shared";

/** The manual payment form in dollars; submitted as the contract's cents. */
const manualPaymentForm = z.object({
  amount: z
    .number({ error: messages.required })
    .positive("Enter an amount.")
    .transform((dollars) => Math.round(dollars * 100)),
  payment_method: manualPaymentInput.shape.payment_method,
});

/**
 * What the desk payment clears. The card shows what the card will be charged (the balance and its
 * card surcharge); at the desk no surcharge is taken, so where the two differ the dialog says why.
 */
export function owingText(s: ActionProps["subscription"]): string {
  if (s.balance_owing <= 0) return "Nothing is owing: the amount is credit for later payments.";
  const q = s.next_charge;
  const surchargeNote =
    q?.kind === "balance_owing" && q.surcharge > 0
      ? ` The ${q.formatted_surcharge} card surcharge in the ${q.formatted_total} on the card is taken only when the card is charged, not at the desk.`
      : "";
  return `${s.formatted_balance_owing} is owing; it is cleared first, the rest is credit for later payments.${surchargeNote}`;
}

/** Records a payment taken at the desk: it clears what is owing first, the rest is credit. */
export function ManualPaymentDialog({ subscription: s, done, close }: ActionProps) {
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
        <Text size="sm">{owingText(s)}</Text>
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
