import { createTheme, type MantineThemeOverride, mergeThemeOverrides } from "@mantine/core";

/** The look both sites share: calm indigo, rounded corners, system fonts (no font download). */
export const baseTheme: MantineThemeOverride = createTheme({
  primaryColor: "indigo",
  primaryShade: { light: 6, dark: 5 },
  defaultRadius: "md",
  cursorType: "pointer",
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
  },
});

/** The join site is used on phones: larger inputs and buttons (44px+ tap targets). */
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
      Button: { defaultProps: { size: "md" } },
    },
  }),
);
