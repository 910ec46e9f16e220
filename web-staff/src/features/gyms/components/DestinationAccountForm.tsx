import { MESSAGES, requiredText, submitHandler, useZodForm, z } from "@gym/web/forms";
import { toast } from "@gym/web/toast";
import { Button, Group, SimpleGrid, Text, TextInput } from "@mantine/core";
import { type Gym, putDestinationAccount } from "../api/gyms";

export const destinationAccountSchema = z
  .object({
    name: requiredText(),
    bank_account_number: requiredText(),
    bank_account_number_confirmation: requiredText(),
  })
  .refine(
    (v) =>
      v.bank_account_number.replace(/[\s-]/g, "") ===
      v.bank_account_number_confirmation.replace(/[\s-]/g, ""),
    {
      path: ["bank_account_number_confirmation"],
      error: MESSAGES.equal,
    },
  );

/**
 * The bank account the gym's payments are paid into: name and number, the number entered twice
 * (spec 000 §5). The saved number is only ever shown masked.
 */
export function DestinationAccountForm({ gym, onSaved }: { gym: Gym; onSaved: (gym: Gym) => void }) {
  const account = gym.destination_account;
  const form = useZodForm({
    schema: destinationAccountSchema,
    initialValues: {
      name: account?.name ?? "",
      bank_account_number: "",
      bank_account_number_confirmation: "",
    },
  });
  const handleSubmit = submitHandler(
    form,
    async (values) => {
      const saved = await putDestinationAccount(gym.id, account?.id ?? "new", values);
      onSaved(saved);
      form.setValues({ bank_account_number: "", bank_account_number_confirmation: "" });
      toast.success("Destination account saved");
    },
    { errorSummary: "The destination account was not saved" },
  );
  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Destination account">
      {account && (
        <Text size="sm" mb="sm">
          Payments go to <strong>{account.name}</strong>, account{" "}
          <span data-testid="masked-account">{account.bank_account_number}</span>.
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput label="Account name" withAsterisk key={form.key("name")} {...form.getInputProps("name")} />
        <TextInput
          label="Bank account number"
          placeholder="12-3456-7890123-00"
          withAsterisk
          autoComplete="off"
          key={form.key("bank_account_number")}
          {...form.getInputProps("bank_account_number")}
        />
        <TextInput
          label="Repeat bank account number"
          withAsterisk
          autoComplete="off"
          onPaste={(event) => event.preventDefault()}
          key={form.key("bank_account_number_confirmation")}
          {...form.getInputProps("bank_account_number_confirmation")}
        />
      </SimpleGrid>
      <Group justify="flex-end" mt="md">
        <Button type="submit" loading={form.submitting}>
          Save account
        </Button>
      </Group>
    </form>
  );
}
