import type { JoinOptions } from "@gym/core/contract/registration";
import { DateField } from "@gym/web/forms/DateField";
import { Badge, Group, Radio, Stack, Text } from "@mantine/core";
import type { ComponentProps } from "react";

type JoinPrice = JoinOptions["offerings"][number]["prices"][number];

/**
 * A card's words (docs/offers.md "Screens"): a pass as a pass, never as a term; a price with a
 * trial says it first ("7-day free trial, then $24.00 Weekly"). index.html's early copy of this
 * list (public/register-shell.js) words each card the same: the app carries its choice over by
 * the card's name.
 */
export function planWords(price: JoinPrice): string {
  if (price.formatted_pass) return price.formatted_pass;
  return price.formatted_trial ? `${price.formatted_trial}, then ${price.label}` : price.label;
}

/**
 * The memberships a join link offers, as cards to pick one price from: used by the register form
 * and by a signed-in member choosing again (`/rejoin`). Takes the form's input props for `price_id`.
 */
export function MembershipChoice({
  offerings,
  ...input
}: { offerings: JoinOptions["offerings"] } & Omit<ComponentProps<typeof Radio.Group>, "children">) {
  return (
    // The message ("Choose a membership") under the label, above the cards: an empty submit scrolls
    // to the first card, and on a phone the end of a long list is out of view (issue 35).
    <Radio.Group
      label="Membership"
      withAsterisk
      inputWrapperOrder={["label", "error", "description", "input"]}
      {...input}
    >
      <Stack gap="sm" mt="xs">
        {offerings.map((offering) => (
          <Stack key={offering.id} gap={6}>
            <Text fw={700}>{offering.name}</Text>
            {offering.description && (
              <Text size="sm" c="gray.7">
                {offering.description}
              </Text>
            )}
            {offering.prices.map((price) => (
              <Radio.Card
                key={price.id}
                value={price.id}
                p="md"
                radius="md"
                aria-label={`${offering.name}: ${planWords(price)}`}
              >
                <Group wrap="nowrap" align="flex-start">
                  <Radio.Indicator />
                  <Stack gap={2}>
                    <Group gap="xs">
                      <Text fw={700}>{planWords(price)}</Text>
                      {price.private && <Badge variant="light">Special offer</Badge>}
                    </Group>
                    <Text size="sm" c="gray.7">
                      {price.kind === "pass" ? "Visit pass" : price.membership_type}
                      {price.formatted_joining_fee ? ` · ${price.formatted_joining_fee} joining fee` : ""}
                    </Text>
                  </Stack>
                </Group>
              </Radio.Card>
            ))}
          </Stack>
        ))}
      </Stack>
    </Radio.Group>
  );
}

/** The parts of a Mantine form the choice fields bind to (method syntax: any form's paths fit). */
interface ChoiceForm {
  key(path: string): string;
  // biome-ignore lint/suspicious/noExplicitAny: Mantine's input props, spread as they come
  getInputProps(path: string): any;
}

/** The choice itself, as registering and choosing again both ask it: the membership, then the start date. */
export function ChoiceFields({
  offerings,
  today,
  form,
}: {
  offerings: JoinOptions["offerings"];
  /** Today in Auckland (YYYY-MM-DD): the earliest start date. */
  today: string;
  form: ChoiceForm;
}) {
  return (
    <>
      <MembershipChoice
        offerings={offerings}
        key={form.key("price_id")}
        {...form.getInputProps("price_id")}
      />
      {/* Day first, the UI kit's (issue 35); `data-date` names it for the shell's hand-over (main.tsx). */}
      <DateField
        label="Start date"
        minDate={today}
        withAsterisk
        data-date="start"
        key={form.key("start_date")}
        {...form.getInputProps("start_date")}
      />
    </>
  );
}
