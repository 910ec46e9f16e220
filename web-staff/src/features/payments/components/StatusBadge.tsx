import { clearedAfterFailureLabel, labelOf, paymentStatusLabels } from "@gym/core/contract/labels";
import { Badge } from "@mantine/core";

/**
 * Spec 001 §4: sent is successful; upcoming, pending_request and awaiting_payment are not paid
 * yet; any other status is failed. Labelled as in every screen and export (contract/labels.ts), in the spec's colours: green, amber, red.
 */
export function statusColour(status: string): "green" | "yellow" | "red" {
  if (status === "sent") return "green";
  if (status === "upcoming" || status === "pending_request" || status === "awaiting_payment") return "yellow";
  return "red";
}

/** `cleared`: a failed charge since paid off (the payment's `cleared_after_failure`), no longer red. */
export function StatusBadge({ status, cleared = false }: { status: string; cleared?: boolean }) {
  return (
    <Badge
      color={cleared ? "green" : statusColour(status)}
      variant="light"
      data-status={status}
      styles={{ root: { maxWidth: "none", flexShrink: 0 }, label: { overflow: "visible" } }}
    >
      {cleared ? clearedAfterFailureLabel : labelOf(paymentStatusLabels, status)}
    </Badge>
  );
}
