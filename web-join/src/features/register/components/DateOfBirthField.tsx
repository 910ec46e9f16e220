import { DateField } from "@gym/web/forms/DateField";
import type { DateInputProps } from "@mantine/dates";

/**
 * The date of birth, as registering and choosing again ask it: the UI kit's day-first date input
 * (issue 35; a browser's own date input shows mm/dd/yyyy in many browsers), filled by the phone
 * from the person's card (`autocomplete="bday"`), its calendar opening on the decades around 30
 * years back (a birth date is years back). Up to today (the business date).
 */
export function DateOfBirthField({ today, ...props }: { today: string } & DateInputProps) {
  return (
    <DateField
      label="Date of birth"
      autoComplete="bday"
      maxDate={today}
      defaultLevel="decade"
      defaultDate={`${Number(today.slice(0, 4)) - 30}-01-01`}
      withAsterisk
      {...props}
    />
  );
}
