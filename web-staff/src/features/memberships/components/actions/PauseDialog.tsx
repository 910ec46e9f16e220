import { pauseInput } from "@gym/core/contract/lifecycle";
import { parseNzDate } from "@gym/web/format";
import { submitHandler, useZodForm } from "@gym/web/forms";
import { Button, Stack, Text } from "@mantine/core";
import { DateInput } from "@mantine/dates";
import { IconCalendar } from "@tabler/icons-react";
import { pauseSubscription } from "../../api/memberships";
import { type ActionProps, Footer } from "./shared";

const dateProps = {
  placeholder: "DD/MM/YYYY",
  valueFormat: "DD/MM/YYYY",
  dateParser: parseNzDate,
  leftSection: <IconCalendar size={16} />,
  withAsterisk: true,
};

/** Whole days from one "YYYY-MM-DD" to another. */
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

/** Books a pause: the first paused day and the day back, with the pause days it uses. */
export function PauseDialog({ subscription: s, done, close }: ActionProps) {
  const form = useZodForm({
    schema: pauseInput,
    mode: "controlled",
    initialValues: { pause_start_at: "", pause_end_at: "" },
  });
  const { pause_start_at: start, pause_end_at: end } = form.getValues();
  const days = start && end ? daysBetween(start, end) : null;
  const handleSubmit = submitHandler(
    form,
    async (values) => done(await pauseSubscription(s.id, values), "Pause saved"),
    { errorSummary: "The pause was not saved" },
  );
  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Pause">
      <Stack gap="sm">
        <Text size="sm">
          {s.payment_method === "pif"
            ? "The membership's end moves out by the paused days."
            : "No payment falls due during a pause, and the period is extended by the paused days."}{" "}
          <strong>{s.pause_days_remaining} pause days</strong> are left.
        </Text>
        <DateInput label="First paused day" {...dateProps} {...form.getInputProps("pause_start_at")} />
        <DateInput
          label="Back on"
          description="The first day the membership runs again"
          {...dateProps}
          {...form.getInputProps("pause_end_at")}
        />
        {days !== null && days > 0 && (
          <Text size="sm" c={days > s.pause_days_remaining ? "red" : undefined}>
            Uses {days} of {s.pause_days_remaining} pause days.
          </Text>
        )}
        <Footer close={close}>
          <Button type="submit" loading={form.submitting}>
            Pause membership
          </Button>
        </Footer>
      </Stack>
    </form>
  );
}
