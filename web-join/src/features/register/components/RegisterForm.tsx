import type { JoinOptions, RegisterBody, registerInput } from "@gym/core/contract/registration";
import { errorMessage } from "@gym/web/api";
import { submitHandler, useLazyZodForm } from "@gym/web/forms";
import { FormError } from "@gym/web/ui";
import { Button, Paper, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { checkEmail } from "../api/registration";
import { ChoiceFields } from "./MembershipChoice";

export interface RegisterFormProps {
  options: JoinOptions;
  links: { price: string | null; age_bypass: string | null };
  /** Today in Auckland (YYYY-MM-DD): the earliest start date. */
  today: string;
  onSubmit: (values: RegisterBody) => Promise<unknown>;
  onSuccess: () => void;
}

/**
 * The register page's form: the membership (the gym's offered prices, or a private link's),
 * then the person. Validated with the API's own schema (the spec's messages), then the server's
 * answer (age, price, email, password rules) lands under the same fields.
 */
export function RegisterForm({ options, links, today, onSubmit, onSuccess }: RegisterFormProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const [returning, setReturning] = useState(false);
  // The API's schema (and zod) arrive after the form has drawn: the page does not wait for them.
  const form = useLazyZodForm<typeof registerInput>({
    loadSchema: () => import("@gym/core/contract/registration").then((m) => m.registerInput),
    initialValues: {
      gym: options.gym.uuid,
      price_id: options.selected_price_id ?? "",
      price_link: links.price,
      age_bypass: links.age_bypass,
      name: "",
      email: "",
      mobile_number: "",
      dob: "",
      password: "",
      start_date: today,
    },
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

  const onEmailBlur = async (event: React.FocusEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value.trim();
    setReturning(false);
    if (!value || !(await form.schema()).shape.email.safeParse(value).success) return;
    try {
      const answer = await checkEmail(value, options.gym.uuid);
      if (!answer.unique) {
        setReturning(answer.is_returning_member);
        form.setFieldError("email", answer.message ?? "An account with that email already exists.");
      }
    } catch {
      // The check is a courtesy: registering checks again.
    }
  };

  return (
    <Paper withBorder p={{ base: "md", xs: "lg" }} shadow="xs">
      <form noValidate onSubmit={handleSubmit} aria-label="Create your account">
        <Stack gap="md">
          {failure && <FormError title="We could not create your account">{failure}</FormError>}
          <ChoiceFields offerings={options.offerings} today={today} form={form} />
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
            onBlur={onEmailBlur}
            description={returning ? "You've been a member before: sign in to rejoin." : undefined}
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
          <TextInput
            label="Date of birth"
            type="date"
            autoComplete="bday"
            max={today}
            withAsterisk
            description={
              options.age_bypass
                ? undefined
                : `You must be at least ${options.min_age} years old to join online.`
            }
            key={form.key("dob")}
            {...form.getInputProps("dob")}
          />
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            description="At least 10 characters. Avoid common passwords; a short phrase works well."
            withAsterisk
            key={form.key("password")}
            {...form.getInputProps("password")}
          />
          <Button type="submit" fullWidth size="lg" mt="xs" loading={form.submitting}>
            Create account
          </Button>
          <Text size="sm" c="gray.7" ta="center">
            We will email you a code to confirm your address.
          </Text>
        </Stack>
      </form>
    </Paper>
  );
}
