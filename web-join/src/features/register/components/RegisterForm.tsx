import { errorMessage } from "@gym/web/api";
import { submitHandler, useZodForm } from "@gym/web/forms";
import { FormError } from "@gym/web/ui";
import { Button, Paper, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { DatePickerInput } from "@mantine/dates";
import { IconCalendar } from "@tabler/icons-react";
import { useState } from "react";
import { PASSWORD_MIN_LENGTH, type RegisterInput, registerSchema } from "../api/register";

export interface RegisterFormProps {
  onSubmit: (values: RegisterInput) => Promise<unknown>;
  onSuccess: () => void;
}

const today = () => new Date().toISOString().slice(0, 10);
const yearsAgo = (years: number) => `${new Date().getFullYear() - years}-01-01`;

export function RegisterForm({ onSubmit, onSuccess }: RegisterFormProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useZodForm({
    schema: registerSchema,
    initialValues: { name: "", email: "", mobile_number: "", dob: null, password: "" },
  });

  const handleSubmit = submitHandler(
    form,
    async (values) => {
      setFailure(null);
      await onSubmit(values);
      onSuccess();
    },
    { onError: (error) => setFailure(errorMessage(error)) },
  );

  return (
    <Paper withBorder p={{ base: "md", xs: "lg" }} shadow="xs">
      <form noValidate onSubmit={handleSubmit} aria-label="Create your account">
        <Stack gap="md">
          {failure && <FormError title="We could not create your account">{failure}</FormError>}
          <TextInput
            label="Full name"
            autoComplete="name"
            autoCapitalize="words"
            withAsterisk
            key={form.key("name")}
            {...form.getInputProps("name")}
          />
          <TextInput
            label="Email"
            type="email"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            withAsterisk
            key={form.key("email")}
            {...form.getInputProps("email")}
          />
          <TextInput
            label="Mobile number"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            placeholder="021 123 4567"
            withAsterisk
            key={form.key("mobile_number")}
            {...form.getInputProps("mobile_number")}
          />
          <DatePickerInput
            label="Date of birth"
            placeholder="Choose your date of birth"
            leftSection={<IconCalendar size={18} />}
            valueFormat="D MMMM YYYY"
            defaultLevel="decade"
            defaultDate={yearsAgo(25)}
            maxDate={today()}
            dropdownType="modal"
            modalProps={{ title: "Date of birth", centered: true }}
            withAsterisk
            key={form.key("dob")}
            {...form.getInputProps("dob")}
          />
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            description={`At least ${PASSWORD_MIN_LENGTH} characters. Avoid common passwords; a short phrase works well.`}
            withAsterisk
            key={form.key("password")}
            {...form.getInputProps("password")}
          />
          <Button type="submit" fullWidth size="lg" mt="xs" loading={form.submitting}>
            Create account
          </Button>
          <Text size="xs" c="dimmed" ta="center">
            We will email you a code to confirm your address.
          </Text>
        </Stack>
      </form>
    </Paper>
  );
}
