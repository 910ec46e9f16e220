import { formatLongDate } from "@gym/web/format";
import { Paper, Stack, Text, Title } from "@mantine/core";
import type { Subscription } from "../api/membership";

/**
 * The member's visit pass on `/membership` (docs/offers.md "Visit passes"): the visits left, the
 * pass's last day, and, when the door no longer opens for it, why.
 */
export function PassPanel({ sub }: { sub: Subscription }) {
  const pass = sub.pass;
  if (!pass) return null;
  return (
    <Paper withBorder p={{ base: "md", xs: "lg" }} component="section" aria-label="Your visit pass">
      <Stack gap="xs">
        <Title order={2} fz="lg">
          Your visit pass
        </Title>
        <Text data-testid="pass-visits">
          <b>
            {pass.left} of {pass.visits}
          </b>{" "}
          visits left, until {formatLongDate(pass.last_day)}. Each day you come in uses one visit.
        </Text>
        {!pass.door && <Text c="red">{pass.reason}</Text>}
      </Stack>
    </Paper>
  );
}
