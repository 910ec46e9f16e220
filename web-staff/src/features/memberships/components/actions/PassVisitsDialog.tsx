import { passVisitsInput } from "@gym/core/contract/lifecycle";
import { numberFieldProps, submitHandler, useZodForm } from "@gym/web/forms";
import { Button, NumberInput, Stack, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { addPassVisits } from "../../api/memberships";
import { type ActionProps, Footer } from "./shared";

/** Adds visits to a visit pass, with a reason for the activity log (docs/offers.md "Visit passes"). */
export function PassVisitsDialog({ subscription: s, done, close }: ActionProps) {
  // One key per dialog opened: sending it again (a double-click, a retry) adds the visits once.
  const [key] = useState(newIdempotencyKey);
  const form = useZodForm({
    schema: passVisitsInput,
    mode: "controlled",
    initialValues: { visits: 1, reason: "" },
  });
  const handleSubmit = submitHandler(
    form,
    async (values) => done(await addPassVisits(s.id, values, key), "Visits added"),
    { errorSummary: "The visits were not added" },
  );
  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Add visits">
      <Stack gap="sm">
        <Text size="sm">
          {s.pass ? `${s.pass.left} of ${s.pass.visits} visits left.` : ""} The reason goes in the member's
          activity log.
        </Text>
        <NumberInput
          label="Visits to add"
          min={1}
          max={100}
          allowDecimal={false}
          withAsterisk
          {...form.getInputProps("visits")}
          {...numberFieldProps(form, "visits")}
        />
        <TextInput label="Reason" withAsterisk {...form.getInputProps("reason")} />
        <Footer close={close}>
          <Button type="submit" loading={form.submitting}>
            Add visits
          </Button>
        </Footer>
      </Stack>
    </form>
  );
}

/** A fresh Idempotency-Key (the API takes 8 to 100 letters, digits, - or _). */
function newIdempotencyKey(): string {
  return globalThis.crypto?.randomUUID?.() ?? `key-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}
