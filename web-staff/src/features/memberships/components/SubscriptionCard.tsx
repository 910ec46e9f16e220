import { nextPaymentLabel } from "@gym/core/contract/payment";
import { formatDate, formatLastDay, formatPause } from "@gym/web/format";
import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import type { Subscription } from "../api/memberships";
import { SubscriptionActions } from "./SubscriptionActions";

/** The spec's card colours (001 §4) as theme colours. */
export const CARD_COLOURS = { green: "green", amber: "orange", red: "red" } as const;

/** The one-word state staff read first, from the derived states (spec 001 §4). */
export function stateLabel(s: Subscription): string {
  if (hasEnded(s)) return `Ended: last day ${formatLastDay(s.cancellation_effective_at)}`;
  if (s.is_cancelled) return `Cancelling: last day ${formatLastDay(s.cancellation_effective_at)}`;
  if (s.in_grace_period) return "In grace period";
  if (s.is_paused) return s.pause_in_future ? `Pause from ${formatDate(s.pause_start_at)}` : "Paused";
  if (s.is_upcoming) return s.upcoming_state === "failed" ? "Upcoming (payment failed)" : "Upcoming";
  if (s.is_awaiting_transfer) return "Awaiting transfer";
  return "Active";
}

/** A cancellation that has taken effect: the membership is over, nothing of it is live. */
export function hasEnded(s: Subscription): boolean {
  return s.is_cancelled && s.cancellation_taken_effect;
}

/** The next money event as core quotes it (`next_charge`): the total the member will pay. */
function quoteText(q: NonNullable<Subscription["next_charge"]>): string {
  if (q.kind === "awaiting_transfer") return `${q.formatted_total} by bank transfer, not yet received`;
  const when = q.due_on ? ` on ${formatDate(q.due_on)}` : "";
  // The balance owing is stated once, as it will be retried: its surcharge split out (tour item 5).
  if (q.kind === "balance_owing")
    return `${q.formatted_total}${
      q.surcharge > 0 ? ` (${q.formatted_amount} and a ${q.formatted_surcharge} card surcharge)` : ""
    }${when} · ${q.payment_method.label}`;
  const surcharge = q.surcharge > 0 ? ` incl. ${q.formatted_surcharge} surcharge` : "";
  return `${q.formatted_total}${when}${surcharge} · ${q.payment_method.label}`;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </Stack>
  );
}

/**
 * A membership at a glance (spec 001 §4: card colour, state, membership type, cooling-off, term,
 * next payment) with the actions staff may take on it. `canChange`: the viewer administers its gym.
 */
export function SubscriptionCard({
  subscription: s,
  canChange,
  onChanged,
}: {
  subscription: Subscription;
  canChange: boolean;
  onChanged: (next: Subscription) => void;
}) {
  const colour = CARD_COLOURS[s.card_colour];
  const next = s.upcoming_payment;
  const quote = s.next_charge;
  const awaiting = quote?.kind === "awaiting_transfer";
  // Ended (tour): its last day, what is still owed or held, and no live-only rows (the current
  // period, the next payment, the term, pause days) that read "Not started" or "None".
  const live = !hasEnded(s);
  return (
    <Card
      withBorder
      radius="md"
      p="lg"
      style={{ borderLeft: `6px solid var(--mantine-color-${colour}-6)` }}
      aria-label="Membership"
      component="section"
    >
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap={2}>
            <Title order={3} size="h4">
              {s.price.offering.name ?? "Membership"}
            </Title>
            <Text size="sm" c="dimmed">
              {s.price.label ?? s.price.formatted_amount} · {s.gym.name}
            </Text>
          </Stack>
          <Group gap="xs">
            <Badge color={colour} variant="light" size="lg">
              {stateLabel(s)}
            </Badge>
            <Badge color="gray" variant="outline">
              {s.membership_type}
            </Badge>
          </Group>
        </Group>

        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
          <Fact label="Started">{formatDate(s.start_date)}</Fact>
          {!live && <Fact label="Last day">{formatLastDay(s.cancellation_effective_at)}</Fact>}
          {live && (
            <Fact label="Current period">
              {s.current_period_start
                ? `${formatDate(s.current_period_start)} – ${formatLastDay(s.current_period_end)}`
                : "Not started"}
            </Fact>
          )}
          {(live || quote) && (
            <Fact label={quote ? quote.title : nextPaymentLabel(next)}>
              {quote
                ? quoteText(quote)
                : next
                  ? `${next.formatted_total} on ${formatDate(next.due_on)}`
                  : s.pif_ends_at
                    ? "Paid in full"
                    : "None"}
            </Fact>
          )}
          {/* The owed figure is the quote's when it is of the balance (one figure, tour item 5). */}
          {quote?.kind !== "balance_owing" && (
            <Fact label="Balance owing">
              {s.balance_owing > 0 ? s.formatted_balance_owing : "Nothing owing"}
            </Fact>
          )}
          {s.credit_balance > 0 && (
            <Fact label="Credit">
              {s.formatted_credit_balance}
              {quote && quote.credit_applied > 0
                ? `, ${quote.formatted_credit_applied} off the next payment`
                : ""}
            </Fact>
          )}
          {live && s.is_term_membership && <Fact label="Term ends">{formatDate(s.term_ends_at)}</Fact>}
          {live && s.on_cooling_period && (
            <Fact label="Cooling-off until">{formatDate(s.cooling_period_ends_at)}</Fact>
          )}
          {s.pif_ends_at && (
            <Fact label={awaiting ? "Covers until" : "Paid in full until"}>
              {formatLastDay(s.pif_ends_at)}
            </Fact>
          )}
          {live && s.payment_method !== "pif" && (
            <Fact label="Pause days left">
              {s.pause_days_remaining} of {s.pause_days_credit}
            </Fact>
          )}
          {live && s.pause_start_at && <Fact label="Pause">{formatPause(s)}</Fact>}
          {/* Only while it is to come, naming the new price (once in effect it is the price above). */}
          {s.pending_price_change && (
            <Fact label="Price change">
              to {s.pending_price_change.label ?? s.pending_price_change.formatted_amount} from{" "}
              {formatDate(s.pending_price_change.takes_effect_on)}
            </Fact>
          )}
          {s.in_grace_period && <Fact label="Grace ends">{formatDate(s.grace_period_ends_at)}</Fact>}
          {s.pass && (
            <Fact label="Visits left">
              {s.pass.left} of {s.pass.visits}
              {s.pass.last_visit_on ? `, last used ${formatDate(s.pass.last_visit_on)}` : ""}
            </Fact>
          )}
          <Fact label="Door access">{s.door_access.standing ? "Yes" : `No: ${s.door_access.reason}`}</Fact>
        </SimpleGrid>

        {canChange && <SubscriptionActions subscription={s} onChanged={onChanged} />}
      </Stack>
    </Card>
  );
}
