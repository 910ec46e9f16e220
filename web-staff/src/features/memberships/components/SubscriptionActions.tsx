import { toast } from "@gym/web/toast";
import { Button, Group, Modal } from "@mantine/core";
import { type ComponentType, useState } from "react";
import type { Subscription } from "../api/memberships";
import { CancelDialog } from "./actions/CancelDialog";
import { ManualPaymentDialog } from "./actions/ManualPaymentDialog";
import { PassVisitsDialog } from "./actions/PassVisitsDialog";
import { PauseDialog } from "./actions/PauseDialog";
import { RemovePauseDialog } from "./actions/RemovePauseDialog";
import { StartNowDialog } from "./actions/StartNowDialog";
import type { ActionProps } from "./actions/shared";
import { UndoCancellationDialog } from "./actions/UndoCancellationDialog";

type ActionKey = keyof Subscription["actions"];

interface ActionEntry {
  key: ActionKey | "pass_visits";
  /** The button on the card. */
  label: string;
  /** The dialog's title. */
  title: string;
  Dialog: ComponentType<ActionProps>;
}

/** The actions in the order the card shows them; each is shown when the answer's `actions` offers it. */
const ACTIONS: readonly ActionEntry[] = [
  { key: "pause", label: "Pause", title: "Pause membership", Dialog: PauseDialog },
  { key: "remove_pause", label: "Remove the pause", title: "Remove the pause", Dialog: RemovePauseDialog },
  { key: "start_now", label: "Start now", title: "Start the membership today", Dialog: StartNowDialog },
  {
    key: "manual_payment",
    label: "Record a payment",
    title: "Record a payment",
    Dialog: ManualPaymentDialog,
  },
  { key: "pass_visits", label: "Add visits", title: "Add visits to the pass", Dialog: PassVisitsDialog },
  { key: "cancel", label: "Cancel", title: "Cancel membership", Dialog: CancelDialog },
  {
    key: "undo_cancellation",
    label: "Undo cancellation",
    title: "Undo cancellation",
    Dialog: UndoCancellationDialog,
  },
];

/**
 * The lifecycle actions the server offers on this membership (its `actions`, docs/billing.md
 * "Derived states"), each behind a dialog (`actions/`) that states its money consequence before
 * anything changes.
 */
export function SubscriptionActions({
  subscription: s,
  onChanged,
}: {
  subscription: Subscription;
  onChanged: (next: Subscription) => void;
}) {
  const [open, setOpen] = useState<ActionEntry | null>(null);
  // Adding visits is offered on any visit pass (docs/offers.md "Visit passes"); the rest by `actions`.
  const offered = ACTIONS.filter((action) =>
    action.key === "pass_visits" ? Boolean(s.pass) : s.actions[action.key],
  );
  if (!offered.length) return null;

  const close = () => setOpen(null);
  const done = (next: Subscription, message: string) => {
    toast.success(message);
    setOpen(null);
    onChanged(next);
  };
  return (
    <>
      <Group gap="xs">
        {offered.map((action) => (
          <Button
            key={action.key}
            size="xs"
            variant={action.key === "cancel" ? "light" : "default"}
            color={action.key === "cancel" ? "red" : undefined}
            onClick={() => setOpen(action)}
          >
            {action.label}
          </Button>
        ))}
      </Group>
      <Modal opened={open !== null} onClose={close} title={open?.title ?? ""} centered>
        {open && <open.Dialog subscription={s} done={done} close={close} />}
      </Modal>
    </>
  );
}
