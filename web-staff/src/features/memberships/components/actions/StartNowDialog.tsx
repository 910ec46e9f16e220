import { errorMessage } from "@gym/web/api";
import { formatDate } from "@gym/web/format";
import { useAction } from "@gym/web/forms";
import { Alert, Button, Loader, Stack, Text } from "@mantine/core";
import { startNow, useStartEarlyData } from "../../api/memberships";
import { type ActionProps, Footer } from "./shared";

/** Starts an upcoming membership today, stating the new start and the first payment. */
export function StartNowDialog({ subscription: s, done, close }: ActionProps) {
  const { data, error } = useStartEarlyData(s.id);
  const confirm = useAction(async () => done(await startNow(s.id), "Membership started today"), {
    errorSummary: "The membership was not started",
  });
  return (
    <Stack gap="sm">
      {error && <Alert color="red">{errorMessage(error)}</Alert>}
      {!data && !error && <Loader size="sm" />}
      {data && (
        <Text size="sm">
          Starts {formatDate(data.start_date)} instead of {formatDate(data.current_start_date)}.
          {data.first_payment &&
            ` The first payment is ${data.first_payment.formatted_amount} on ${formatDate(data.first_payment.due_on)}${
              data.first_payment.is_pro_rata ? " (pro-rata)" : ""
            }.`}
        </Text>
      )}
      <Footer close={close}>
        <Button onClick={() => void confirm.run()} loading={confirm.running} disabled={!data?.allowed}>
          Start today
        </Button>
      </Footer>
    </Stack>
  );
}
