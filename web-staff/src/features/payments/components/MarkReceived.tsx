import { useAction } from "@gym/web/forms";
import { toast, toastApiError } from "@gym/web/toast";
import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { markReceived, type Payment } from "../api/payments";

/** "Mark received" for a bank transfer or manual payment, behind a confirm dialog. */
export function MarkReceivedButton({ payment, onDone }: { payment: Payment; onDone: (p: Payment) => void }) {
  const [open, setOpen] = useState(false);
  const confirm = useAction(
    async () => {
      const saved = await markReceived(payment.id);
      toast.success(`${payment.formatted_total} from ${payment.user.name} marked received.`);
      setOpen(false);
      onDone(saved);
    },
    {
      onError: (error) => {
        toastApiError(error, "Not marked received");
        setOpen(false);
        onDone(payment);
      },
    },
  );
  const busy = confirm.running;
  return (
    <>
      <Button
        size="xs"
        variant="light"
        // Never narrower than its label (a table squeezing its last column cut it to "Mark rece").
        miw="max-content"
        onClick={(event) => {
          event.stopPropagation();
          setOpen(true);
        }}
      >
        Mark received
      </Button>
      <Modal opened={open} onClose={() => !busy && setOpen(false)} title="Mark payment received?" centered>
        <Stack>
          <Text size="sm">
            Confirm that {payment.formatted_total} from {payment.user.name} ({payment.gym.name}) has arrived
            in your account. The payment will show as successful, recorded as processed by you.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)} disabled={busy}>
              Cancel
            </Button>
            <Button onClick={() => void confirm.run()} loading={busy}>
              Mark received
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
