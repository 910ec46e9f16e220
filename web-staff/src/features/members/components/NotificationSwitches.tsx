import { memberFieldLabels } from "@gym/core/contract/member";
import { Badge, Group, Stack, Text } from "@mantine/core";

/** What each switch does when it is off (docs/communications.md "Preferences"). */
const WHEN_OFF = {
  email_notifications_enabled:
    "Off: no optional emails (reminders, card-expiry notices). Receipts, sign-in codes and payment notices still go.",
  payment_reminders: "Off: no reminder before a charge, unless its amount or date changes.",
  push_notifications_enabled: "For the gym's app.",
} as const;

type Switch = keyof typeof WHEN_OFF;

/**
 * The member's notification switches, read-only: they are the member's own consent, changed by
 * the member on their membership page (or an email's unsubscribe link), never by staff.
 */
export function NotificationSwitches({ member }: { member: Record<Switch, boolean> }) {
  return (
    <Stack gap="sm">
      <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: "none" }}>
        {(Object.keys(WHEN_OFF) as Switch[]).map((key) => (
          <li key={key}>
            <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
              <Stack gap={0}>
                <Text size="sm">{memberFieldLabels[key]}</Text>
                <Text size="xs" c="gray.7">
                  {WHEN_OFF[key]}
                </Text>
              </Stack>
              <Badge variant="light" color={member[key] ? "green" : "gray"} style={{ flexShrink: 0 }}>
                {member[key] ? "On" : "Off"}
              </Badge>
            </Group>
          </li>
        ))}
      </Stack>
      <Text size="xs" c="gray.7">
        Only the member can change these, on their membership page.
      </Text>
    </Stack>
  );
}
