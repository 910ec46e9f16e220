import { MantineProvider, type MantineThemeOverride } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import { lazy, type ReactNode, Suspense } from "react";
import { SWRConfig, type SWRConfiguration } from "swr";
import { swrConfig } from "../api/swr";
import { contrastResolver } from "./contrast";
import { baseTheme } from "./theme";

export interface AppProvidersProps {
  children: ReactNode;
  /** Defaults to {@link baseTheme}. */
  theme?: MantineThemeOverride;
  /** Extra SWR settings (tests pass `{ provider: () => new Map() }` for a fresh cache). */
  swr?: SWRConfiguration;
  /** "test" turns off Mantine transitions and portals. */
  env?: "default" | "test";
}

/**
 * The toasts' container, loaded after the first paint: it and its transitions stay out of the
 * first download. Toasts shown before it arrives wait in Mantine's store and appear with it.
 */
const Notifications = lazy(() =>
  import("@mantine/notifications").then((m) => ({ default: m.Notifications })),
);

/**
 * Theme (with colours made readable: contrast.ts), toasts (top-right) and data fetching, without `ModalsProvider`: Modal and its
 * ScrollArea stay out of the first download. The join site uses this and `<Modal>` directly.
 */
export function BaseProviders({ children, theme = baseTheme, swr, env = "default" }: AppProvidersProps) {
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="light"
      env={env}
      cssVariablesResolver={contrastResolver}
    >
      <Suspense fallback={null}>
        <Notifications position="top-right" limit={5} containerWidth={400} zIndex={1000} />
      </Suspense>
      <SWRConfig value={{ ...swrConfig, ...swr }}>{children}</SWRConfig>
    </MantineProvider>
  );
}

/** Theme, toasts (top-right), modals (`modals.openConfirmModal`) and data fetching for a whole site. */
export function AppProviders({ children, ...props }: AppProvidersProps) {
  return (
    <BaseProviders {...props}>
      <ModalsProvider labels={{ confirm: "Confirm", cancel: "Cancel" }}>{children}</ModalsProvider>
    </BaseProviders>
  );
}
