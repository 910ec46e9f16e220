import { createTheme, type MantineThemeOverride, mergeThemeOverrides } from "@mantine/core";

/** Names for the calendar's arrow and level buttons, which are icons only. */
const calendarAriaLabels = {
  monthLevelControl: "Choose the month",
  yearLevelControl: "Choose the year",
  nextMonth: "Next month",
  previousMonth: "Previous month",
  nextYear: "Next year",
  previousYear: "Previous year",
  nextDecade: "Next decade",
  previousDecade: "Previous decade",
};
const withCalendarLabels = { defaultProps: { ariaLabels: calendarAriaLabels } };

/** The look both sites share: calm indigo, rounded corners, system fonts (no font download). */
export const baseTheme: MantineThemeOverride = createTheme({
  primaryColor: "indigo",
  primaryShade: { light: 6, dark: 5 },
  defaultRadius: "md",
  cursorType: "pointer",
  // Drawers, dialogs, menus and toasts appear without sliding for people who ask for less motion.
  respectReducedMotion: true,
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: {
    fontFamily:
      'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    fontWeight: "700",
  },
  components: {
    Paper: { defaultProps: { radius: "lg" } },
    Card: { defaultProps: { radius: "lg" } },
    Alert: { defaultProps: { radius: "md", variant: "light" } },
    // Icon-only close buttons need a name (dialogs, drawers).
    Modal: { defaultProps: { closeButtonProps: { "aria-label": "Close" } } },
    Drawer: { defaultProps: { closeButtonProps: { "aria-label": "Close" } } },
    // A loader is a status: its aria-label ("Loading", "Searching") is allowed and read out.
    Loader: { defaultProps: { role: "status" } },
    // A table wider than a phone scrolls sideways: keyboard users reach the scrolling with Tab.
    TableScrollContainer: { defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0 } } } },
    // Plain objects (not `DatePicker.extend`) keep @mantine/dates out of the first download.
    Calendar: withCalendarLabels,
    DatePicker: withCalendarLabels,
    DatePickerInput: withCalendarLabels,
    DateInput: withCalendarLabels,
    DateTimePicker: withCalendarLabels,
    MonthPickerInput: withCalendarLabels,
    YearPickerInput: withCalendarLabels,
  },
});

/**
 * The join site is used on phones: larger inputs and buttons (44px+ tap targets). Colours pass
 * WCAG AA contrast on both sites through AppProviders' resolver (contrast.ts).
 */
export const touchTheme: MantineThemeOverride = mergeThemeOverrides(
  baseTheme,
  createTheme({
    components: {
      TextInput: { defaultProps: { size: "md" } },
      PasswordInput: { defaultProps: { size: "md" } },
      NumberInput: { defaultProps: { size: "md" } },
      Select: { defaultProps: { size: "md" } },
      DatePickerInput: { defaultProps: { size: "md" } },
      DateInput: { defaultProps: { size: "md" } },
      Checkbox: { defaultProps: { size: "md" } },
      // A label longer than a phone is wide wraps onto a second line instead of being cut off
      // ("Choose another way to pay" at size lg): the button grows, never shrinks below its size.
      Button: {
        defaultProps: { size: "md" },
        styles: {
          root: { height: "auto" },
          inner: { minHeight: "calc(var(--button-height) - 2px)" },
          label: { whiteSpace: "normal", textAlign: "center", overflow: "visible", paddingBlock: 4 },
        },
      },
    },
  }),
);
