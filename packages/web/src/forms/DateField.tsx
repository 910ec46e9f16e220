/**
 * The one date input of both sites (issue 35): the UI kit's `DateInput` (@mantine/dates), day
 * first whatever the browser's language ("16/01/2026"; a native `type="date"` shows mm/dd/yyyy in
 * many browsers). It takes what people type in en-NZ ("2/6/2025", "02/06/2025") or ISO, and gives
 * and takes the API's "YYYY-MM-DD" (or null when empty). Imported from `@gym/web/forms/DateField`,
 * not the forms index, so a page without a date does not download the calendar.
 */
// The calendar's styles come with it: the join site's first stylesheet carries no date styles (its
// budget), so without this its calendar was drawn unstyled (giant chevrons over the page).
import "@mantine/dates/styles.layer.css";
import { DateInput, type DateInputProps } from "@mantine/dates";
import { IconCalendar } from "@tabler/icons-react";
import { parseNzDate } from "../format";

/** How a chosen date is shown in the input: en-NZ d/MM/yyyy, as every date on the sites. */
export const DATE_INPUT_FORMAT = "D/MM/YYYY";

export function DateField(props: DateInputProps) {
  return (
    <DateInput
      valueFormat={DATE_INPUT_FORMAT}
      placeholder="DD/MM/YYYY"
      dateParser={parseNzDate}
      leftSection={<IconCalendar size={16} aria-hidden />}
      {...props}
    />
  );
}
