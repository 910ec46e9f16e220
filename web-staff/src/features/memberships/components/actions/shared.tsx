import { useAction } from "@gym/web/forms";
import { Button, Group, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import type { Subscription } from "../../api/memberships";

/** What every action dialog is given: the membership, and what to call when it changed or closes. */
export interface ActionProps {
  subscription: Subscription;
  /** The action succeeded: shows `message`, closes the dialog and hands on the changed membership. */
  done: (next: Subscription, message: string) => void;
  close: () => void;
}

/** The dialog's buttons: "Keep as is" (closes, changes nothing) and the action's own. */
export function Footer({ close, children }: { close: () => void; children: ReactNode }) {
  return (
    <Group justify="flex-end" mt="md">
      <Button variant="default" onClick={close}>
        Keep as is
      </Button>
      {children}
    </Group>
  );
}

/** A dialog that only states what happens and asks to confirm. */
export function ConfirmAction({
  text,
  label,
  run,
  message,
  done,
  close,
}: Omit<ActionProps, "subscription"> & {
  text: string;
  label: string;
  run: () => Promise<Subscription>;
  message: string;
}) {
  const confirm = useAction(async () => done(await run(), message), { errorSummary: "Nothing was changed" });
  return (
    <Stack gap="sm">
      <Text size="sm">{text}</Text>
      <Footer close={close}>
        <Button onClick={() => void confirm.run()} loading={confirm.running}>
          {label}
        </Button>
      </Footer>
    </Stack>
  );
}
