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

/**
 * The dialog's buttons: the one that closes it and changes nothing ("Cancel", or what the dialog
 * says instead where "Cancel" would read as the action: "Keep the membership"), and the action's own.
 */
export function Footer({
  close,
  dismiss = "Cancel",
  children,
}: {
  close: () => void;
  dismiss?: string;
  children: ReactNode;
}) {
  return (
    <Group justify="flex-end" mt="md">
      <Button variant="default" onClick={close}>
        {dismiss}
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
