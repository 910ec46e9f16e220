import { Badge } from "@mantine/core";
import type { PaymentStatusValue } from "../api/payments";

/**
 * Spec 001 §4: sent is successful; upcoming, pending_request and awaiting_payment are not paid
 * yet; any other status is failed. Shown in the spec's colours: green, amber, red.
 */
export const statusLabels: Record<PaymentStatusValue, string> = {
  sent: "Successful",
  upcoming: "Upcoming",
  pending_request: "Pending",
  awaiting_payment: "Awaiting payment",
  failed: "Failed",
  declined: "Declined",
  cancelled: "Cancelled",
};

export function statusColour(status: string): "green" | "yellow" | "red" {
  if (status === "sent") return "green";
  if (status === "upcoming" || status === "pending_request" || status === "awaiting_payment") return "yellow";
  return "red";
}

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge
      color={statusColour(status)}
      variant="light"
      data-status={status}
      styles={{ root: { maxWidth: "none", flexShrink: 0 }, label: { overflow: "visible" } }}
    >
      {statusLabels[status as PaymentStatusValue] ?? status}
    </Badge>
  );
}

export const typeLabels: Record<string, string> = {
  stripe_card: "Card",
  bank_account: "Direct debit",
  pif: "Pay in full",
};
