import { pauseDaysFieldMap, pauseDaysInput, pauseFromDays } from "@gym/core/contract/lifecycle";
import { submitHandler, useZodForm } from "@gym/web/forms";
import { PauseDaysFields } from "@gym/web/forms/PauseDaysFields";
import { Button, Stack, Text } from "@mantine/core";
import { pauseSubscription } from "../../api/memberships";
import { type ActionProps, Footer } from "./shared";

/**
 * Books a pause: the first and the last paused day, both included, as the member books one on the
 * join site (one convention, docs/billing.md "Pauses"), with the day back and the pause days it uses.
 */
export function PauseDialog({ subscription: s, done, close }: ActionProps) {
  const form = useZodForm({
    schema: pauseDaysInput,
    mode: "controlled",
    initialValues: { pause_start_at: "", pause_last_day: "" },
  });
  const handleSubmit = submitHandler(
    form,
    async (values) => done(await pauseSubscription(s.id, pauseFromDays(values)), "Pause saved"),
    { errorSummary: "The pause was not saved", fieldMap: pauseDaysFieldMap },
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
        <PauseDaysFields form={form} daysLeft={s.pause_days_remaining} />
        <Footer close={close}>
          <Button type="submit" loading={form.submitting}>
            Pause membership
          </Button>
        </Footer>
      </Stack>
    </form>
  );
}
