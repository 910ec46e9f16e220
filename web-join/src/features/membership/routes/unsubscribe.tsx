import { api } from "@gym/web/api";
import { toastApiError } from "@gym/web/toast";
import { Alert, Button, Stack, Text } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { JoinLayout } from "../../../components/JoinLayout";

/**
 * `/unsubscribe?token=…`: where an optional email's "Stop these emails" link lands (no sign-in).
 * Opening the page changes nothing (mail scanners open links); the button does, with the same
 * one-click call mail clients make (`POST /api/unsubscribe`).
 */
export function UnsubscribeRoute() {
  useDocumentTitle("Stop these emails");
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [state, setState] = useState<"ready" | "saving" | "done">("ready");
  const stop = async () => {
    setState("saving");
    try {
      await api.post(`/api/unsubscribe?token=${encodeURIComponent(token)}`);
      setState("done");
    } catch (error) {
      toastApiError(error, "That link did not work");
      setState("ready");
    }
  };
  return (
    <JoinLayout title="Stop these emails">
      {state === "done" ? (
        <Alert color="green" title="Done">
          You will no longer get payment reminders or card-expiry notices by email. Receipts, sign-in codes
          and notices about a failed payment or a change to what you pay still come. You can turn them back on
          from My membership.
        </Alert>
      ) : (
        <Stack gap="md">
          <Text>
            Stop payment reminders, card-expiry notices and other optional emails from your gym? Receipts,
            sign-in codes and notices about a failed payment or a change to what you pay still come.
          </Text>
          <Button onClick={() => void stop()} loading={state === "saving"} disabled={!token}>
            Stop these emails
          </Button>
        </Stack>
      )}
    </JoinLayout>
  );
}

export { UnsubscribeRoute as Component };
