import type { JoinOptions, RegisterBody, registerInput } from "@gym/core/contract/registration";
import { errorMessage } from "@gym/web/api";
import { formDraft, submitHandler, useLazyZodForm } from "@gym/web/forms";
import { FormError } from "@gym/web/ui";
import { Button, Paper, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { useMemo, useState } from "react";
import { checkEmail } from "../api/registration";
import { DateOfBirthField } from "./DateOfBirthField";
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
  // An address that already has an account: said once, under the field, as news rather than a
  // fault (the person only has to sign in instead). Registering with it is refused by the server.
  const [emailNotice, setEmailNotice] = useState<string | null>(null);
  // What was typed survives a reload of this tab (not the password); sent, it is forgotten.
  const draft = useMemo(
    () => formDraft<RegisterBody>(`join-register:${options.gym.uuid}`, ["password"]),
    [options],
  );
  const kept = useMemo(() => {
    const values = draft.read();
    const offered = options.offerings.some((o) => o.prices.some((p) => p.id === values.price_id));
    return {
      name: typeof values.name === "string" ? values.name : "",
      email: typeof values.email === "string" ? values.email : "",
      mobile_number: typeof values.mobile_number === "string" ? values.mobile_number : "",
      dob: typeof values.dob === "string" ? values.dob : "",
      ...(offered && !options.selected_price_id ? { price_id: values.price_id as string } : {}),
      ...(typeof values.start_date === "string" && values.start_date >= today
        ? { start_date: values.start_date }
        : {}),
    };
  }, [draft, options, today]);
  // The API's schema (and zod) arrive after the form has drawn: the page does not wait for them.
  const form = useLazyZodForm<typeof registerInput>({
    loadSchema: () => import("@gym/core/contract/registration").then((m) => m.registerInput),
    initialValues: {
      gym: options.gym.uuid,
      price_id: options.selected_price_id ?? "",
      price_link: links.price,
      age_bypass: links.age_bypass,
      password: "",
      start_date: today,
      // name, email, mobile_number and dob: as kept from this tab's draft, else empty.
      ...kept,
    },
    onValuesChange: (values) => draft.write(values as RegisterBody),
  });

  const handleSubmit = submitHandler(
    form,
    async (values) => {
      setFailure(null);
      await onSubmit(values);
      draft.clear();
      onSuccess();
    },
    { onError: (error) => setFailure(errorMessage(error)) },
  );

  const onEmailBlur = async (event: React.FocusEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value.trim();
    setEmailNotice(null);
    if (!value || !(await form.schema()).shape.email.safeParse(value).success) return;
    try {
      const answer = await checkEmail(value, options.gym.uuid);
      if (!answer.unique) {
        setEmailNotice(answer.message ?? "An account with that email already exists. Sign in instead.");
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
            description={emailNotice ?? undefined}
            descriptionProps={emailNotice ? { role: "status", c: "blue.9", fz: "sm" } : undefined}
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
          <DateOfBirthField
            today={today}
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
