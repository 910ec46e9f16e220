/**
 * The pause form's fields, the same on both sites (issue 35, docs/billing.md "Pauses"): the first
 * and the **last** paused day, both included, side by side and level, then what that means: the
 * day back and the pause days it uses. Sent as `pauseFromDays(values)` (contract/lifecycle.ts).
 */
import type { PauseDaysInput } from "@gym/core/contract/lifecycle";
import { SimpleGrid, Text } from "@mantine/core";
import type { UseFormReturnType } from "@mantine/form";
import { formatDate } from "../format";
import { DateField } from "./DateField";

const DAY = 86_400_000;
const civil = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** Whole days from the first to the last paused day, both included; null until both are chosen. */
export function pauseDays(first: string, last: string): number | null {
  if (!first || !last) return null;
  return Math.round((Date.parse(last) - Date.parse(first)) / DAY) + 1;
}

export function PauseDaysFields({
  form,
  daysLeft,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: the form's output type is the caller's
  form: UseFormReturnType<PauseDaysInput, any>;
  /** Pause days the member has left. */
  daysLeft: number;
}) {
  const { pause_start_at: first, pause_last_day: last } = form.getValues();
  const days = pauseDays(first, last);
  return (
    <>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
        <DateField
          label="First day"
          withAsterisk
          key={form.key("pause_start_at")}
          {...form.getInputProps("pause_start_at")}
        />
        <DateField
          label="Last day"
          withAsterisk
          minDate={first || undefined}
          key={form.key("pause_last_day")}
          {...form.getInputProps("pause_last_day")}
        />
      </SimpleGrid>
      {days !== null && days > 0 && (
        <Text size="sm" c={days > daysLeft ? "red" : undefined} role="status">
          Back on {formatDate(civil(last, 1))}. Uses {days} of {daysLeft} pause days.
        </Text>
      )}
    </>
  );
}
