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
