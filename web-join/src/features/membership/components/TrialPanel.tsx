import { isApiError } from "@gym/web/api";
import { formatLongDate } from "@gym/web/format";
import { useAction } from "@gym/web/forms";
import { Alert, Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { type Subscription, stopMyTrial } from "../api/membership";

/**
 * The member's trial on `/membership` (docs/offers.md "Stopping during the trial"): when it ends,
 * what is taken after it (the quoted next payment, all-in), and "Stop my trial", which ends the
 * membership at the trial's end with nothing to pay, without staff.
 */
export function TrialPanel({ sub, onDone }: { sub: Subscription; onDone: () => void }) {
  const trial = sub.trial;
  const [asked, setAsked] = useState(false);
  const stopping = useAction(
    async () => {
      await stopMyTrial(sub.id);
      onDone();
    },
    {
      errorSummary: (error) =>
        isApiError(error) && error.status === 409 ? undefined : "Your trial was not stopped",
    },
  );
  if (!trial?.in_trial || sub.is_cancelled) return null;
  const next = sub.next_charge;
  return (
    <Paper withBorder p={{ base: "md", xs: "lg" }} component="section" aria-label="Your trial">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          Your trial
        </Title>
        <Text data-testid="trial-ends">
          Your trial's last day is <b>{formatLongDate(trial.last_day)}</b>.
          {next?.due_on ? ` Then ${next.formatted_total} is taken on ${formatLongDate(next.due_on)}.` : ""}
        </Text>
        {!asked ? (
          <Button variant="outline" color="red" onClick={() => setAsked(true)}>
            Stop my trial
          </Button>
        ) : (
          <Alert color="orange" title="Stop your trial?">
            <Stack gap="sm">
              <Text>
                You keep access until {formatLongDate(trial.last_day)}, then your membership ends. You pay
                nothing more.
              </Text>
              <Group>
                <Button color="red" loading={stopping.running} onClick={() => void stopping.run()}>
                  Stop my trial
                </Button>
                <Button variant="default" onClick={() => setAsked(false)}>
                  Keep my membership
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
