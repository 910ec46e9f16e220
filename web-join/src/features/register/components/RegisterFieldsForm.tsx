import {
  confidenceAnswers,
  confidenceLabels,
  hearAboutUsAnswers,
  hearAboutUsLabels,
  type RegisterFields,
  registerFieldsInput,
} from "@gym/core/contract/registration";
import { scrollToFirstError, submitHandler, useZodForm } from "@gym/web/forms";
import { Accordion, Button, Select, Stack, Switch, Text, TextInput } from "@mantine/core";
import { type RefObject, useRef, useState } from "react";
import { saveRegisterFields } from "../api/registration";

/** Saves what was typed and not yet saved; false when it could not be (the fields say why). */
export type SaveUnsaved = () => Promise<boolean>;

/**
 * The member's register fields (`PUT /api/me/register-fields`): address, emergency contact,
 * confidence and experience, how they heard of the gym, notifications. Optional, folded away.
 * `unsaved` lets the page save what was typed without "Save my details" (the confirm page does,
 * with the confirmation): nothing a member typed is lost by leaving.
 */
export function RegisterFieldsForm({
  initial,
  unsaved,
}: {
  initial: RegisterFields;
  unsaved?: RefObject<SaveUnsaved | null>;
}) {
  const [saved, setSaved] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const form = useZodForm({
    schema: registerFieldsInput,
    initialValues: {
      address: initial.address ?? "",
      suburb: initial.suburb ?? "",
      city: initial.city ?? "",
      post_code: initial.post_code ?? "",
      emergency_contact_name: initial.emergency_contact_name ?? "",
      emergency_contact_email: initial.emergency_contact_email ?? "",
      emergency_contact_mobile_number: initial.emergency_contact_mobile_number ?? "",
      emergency_contact_relationship: initial.emergency_contact_relationship ?? "",
      confidence_and_experience:
        (initial.confidence_and_experience as (typeof confidenceAnswers)[number] | null) ?? null,
      hear_about_us: (initial.hear_about_us as (typeof hearAboutUsAnswers)[number] | null) ?? null,
      hear_about_us_other: initial.hear_about_us_other ?? "",
      // Consent to the gym's news is the member's to give: off until they turn it on (UEMA 2007).
      marketing_emails: initial.marketing_emails ?? false,
      payment_reminders: initial.payment_reminders,
    },
    onValuesChange: () => setSaved(false),
  });
  const submit = submitHandler(form, async (values) => {
    await saveRegisterFields(values);
    form.resetDirty();
    setSaved(true);
  });
  if (unsaved) {
    unsaved.current = async () => {
      if (!form.isDirty()) return true;
      if (form.validate().hasErrors) {
        setOpen("about");
        scrollToFirstError(formRef.current);
        return false;
      }
      await saveRegisterFields(form.getTransformedValues());
      form.resetDirty();
      return true;
    };
  }
  const [hearAboutUs, setHearAboutUs] = useState(initial.hear_about_us);
  form.watch("hear_about_us", ({ value }) => setHearAboutUs(value ?? null));
  const text = (name: keyof RegisterFields, label: string, extra: Record<string, unknown> = {}) => (
    <TextInput label={label} key={form.key(name)} {...form.getInputProps(name)} {...extra} />
  );

  return (
    <Accordion variant="separated" radius="md" value={open} onChange={setOpen}>
      <Accordion.Item value="about">
        <Accordion.Control>About you (optional)</Accordion.Control>
        <Accordion.Panel>
          <form ref={formRef} noValidate onSubmit={submit} aria-label="About you">
            <Stack gap="md">
              {text("address", "Street address", { autoComplete: "address-line1" })}
              {text("suburb", "Suburb", { autoComplete: "address-line2" })}
              {text("city", "City", { autoComplete: "address-level2" })}
              {text("post_code", "Post code", { autoComplete: "postal-code", inputMode: "numeric" })}
              <Text fw={700}>Emergency contact</Text>
              {text("emergency_contact_name", "Name", { autoComplete: "off" })}
              {text("emergency_contact_mobile_number", "Mobile number", { type: "tel", inputMode: "tel" })}
              {text("emergency_contact_email", "Email", { type: "email", inputMode: "email" })}
              {text("emergency_contact_relationship", "Relationship to you")}
              <Select
                label="How confident are you in a gym?"
                data={confidenceAnswers.map((value) => ({ value, label: confidenceLabels[value] }))}
                clearable
                key={form.key("confidence_and_experience")}
                {...form.getInputProps("confidence_and_experience")}
              />
              <Select
                label="How did you hear about us?"
                data={hearAboutUsAnswers.map((value) => ({ value, label: hearAboutUsLabels[value] }))}
                clearable
                key={form.key("hear_about_us")}
                {...form.getInputProps("hear_about_us")}
              />
              {hearAboutUs === "other" && text("hear_about_us_other", "Tell us where")}
              <Switch
                label="Email me the gym's news and offers"
                description="Only if you want them. Receipts, payment reminders and notices about your membership come either way."
                key={form.key("marketing_emails")}
                {...form.getInputProps("marketing_emails", { type: "checkbox" })}
              />
              <Switch
                label="Remind me before payments"
                key={form.key("payment_reminders")}
                {...form.getInputProps("payment_reminders", { type: "checkbox" })}
              />
              <Button type="submit" variant="light" loading={form.submitting}>
                Save my details
              </Button>
              {saved && (
                <Text role="status" c="teal.8">
                  Saved.
                </Text>
              )}
            </Stack>
          </form>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
