import type { MantineColor } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import {
  IconAlertTriangle,
  IconCheck,
  IconCircleX,
  IconInfoCircle,
  IconMessage,
  IconMessageCircle,
} from "@tabler/icons-react";
import type { ReactNode } from "react";
import { errorMessage } from "../api/client";

export type ToastSeverity = "info" | "success" | "warn" | "error" | "secondary" | "contrast";

export interface ToastOptions {
  severity?: ToastSeverity;
  /** Bold first line. */
  summary?: ReactNode;
  /** The message itself. */
  detail?: ReactNode;
  /** Milliseconds before it closes by itself; `false` keeps it until closed. Pauses while hovered. */
  life?: number | false;
  /** `false` hides the close button and disables swipe-to-dismiss. */
  closable?: boolean;
  /** Reuse an id to replace a toast instead of stacking another. */
  id?: string;
}

interface SeverityStyle {
  color: MantineColor;
  icon: ReactNode;
  life: number;
  /** Errors and warnings are announced at once; the rest politely. */
  role: "alert" | "status";
}

const ICON_SIZE = 18;

export const SEVERITIES: Record<ToastSeverity, SeverityStyle> = {
  info: { color: "blue", icon: <IconInfoCircle size={ICON_SIZE} />, life: 5000, role: "status" },
  success: { color: "teal", icon: <IconCheck size={ICON_SIZE} />, life: 4000, role: "status" },
  warn: { color: "orange", icon: <IconAlertTriangle size={ICON_SIZE} />, life: 7000, role: "alert" },
  error: { color: "red", icon: <IconCircleX size={ICON_SIZE} />, life: 8000, role: "alert" },
  secondary: { color: "gray", icon: <IconMessage size={ICON_SIZE} />, life: 5000, role: "status" },
  contrast: { color: "dark", icon: <IconMessageCircle size={ICON_SIZE} />, life: 5000, role: "status" },
};

/** Shows a toast at the top-right; returns its id. */
function show(options: ToastOptions): string {
  const severity = options.severity ?? "info";
  const style = SEVERITIES[severity];
  const closable = options.closable ?? true;
  const hasSummary = options.summary !== undefined && options.summary !== null && options.summary !== "";
  return notifications.show({
    id: options.id,
    color: style.color,
    icon: style.icon,
    title: hasSummary ? options.summary : undefined,
    message: (hasSummary ? options.detail : (options.detail ?? options.summary)) ?? "",
    autoClose: options.life ?? style.life,
    withCloseButton: closable,
    allowClose: closable,
    withBorder: true,
    role: style.role,
    "data-severity": severity,
    closeButtonProps: { "aria-label": "Close notification" },
  });
}

type Shorthand = (detail: ReactNode, options?: Omit<ToastOptions, "severity" | "detail">) => string;

const shorthand =
  (severity: ToastSeverity): Shorthand =>
  (detail, options) =>
    show({ ...options, severity, detail });

/**
 * `toast({ severity, summary, detail, life, closable })`, or the shorthands
 * `toast.success("Saved")`, `toast.error("…", { summary: "Not saved" })`.
 */
export const toast = Object.assign(show, {
  info: shorthand("info"),
  success: shorthand("success"),
  warn: shorthand("warn"),
  error: shorthand("error"),
  secondary: shorthand("secondary"),
  contrast: shorthand("contrast"),
  dismiss: (id: string) => notifications.hide(id),
  clear: () => notifications.clean(),
});

/** Shows a failed call as an error toast with the server's message (else the error text). */
export function toastApiError(error: unknown, summary: ReactNode = "Something went wrong"): string {
  return show({ severity: "error", summary, detail: errorMessage(error) });
}
