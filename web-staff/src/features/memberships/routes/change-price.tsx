import { isApiError } from "@gym/web/api";
import { administersGym, useAuth } from "@gym/web/auth";
import { formatDate } from "@gym/web/format";
import { useAction } from "@gym/web/forms";
import { DateField } from "@gym/web/forms/DateField";
import { toast, toastApiError } from "@gym/web/toast";
import { wideScreensOnly } from "@gym/web/ui";
import {
  Accordion,
  Alert,
  Anchor,
  Badge,
  Button,
  Container,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import { IconMail } from "@tabler/icons-react";
import { DataTable } from "mantine-datatable";
import { useMemo, useState } from "react";
import { Link } from "react-router-dom";
import { usePageTitle } from "../../../app/page-title";
import {
  type PriceChangeCandidate,
  type PriceChangeEmail,
  previewPriceChange,
  schedulePriceChange,
  useOrganisationPrices,
  usePriceChangeCandidates,
} from "../api/memberships";
import { CARD_COLOURS } from "../components/SubscriptionCard";

/** A change is scheduled for at most this many memberships at once (the API's limit). */
const MAX_AT_ONCE = 200;

/**
 * /members/change-price (spec 001 §2, members.change-price.index): pick the members on a price, the
 * new price and the date, read the exact email each member will get, then schedule. A rise needs the
 * organisation's notice period; the server refuses an earlier date and says so on the date field.
 */
export function ChangePriceRoute() {
  usePageTitle("Change price");
  const { user } = useAuth();
  const organisationId = user?.current_organisation?.id ?? null;
  const gyms = user ? user.gyms.filter((g) => administersGym(user, g.id)) : [];
  const { data: prices } = useOrganisationPrices(organisationId);
  const [fromPrice, setFromPrice] = useState<string | null>(null);
  const [gymId, setGymId] = useState<string | null>(null);
  const [toPrice, setToPrice] = useState<string | null>(null);
  const [date, setDate] = useState<string | null>(null);
  const [selected, setSelected] = useState<PriceChangeCandidate[]>([]);
  const [preview, setPreview] = useState<PriceChangeEmail[] | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { data: candidates, isLoading, mutate } = usePriceChangeCandidates(fromPrice, gymId);

  const recurring = (prices ?? []).filter((p) => p.billing_frequency !== "one_off");
  const from = recurring.find((p) => p.id === fromPrice);
  const targets = recurring.filter(
    (p) => p.id !== fromPrice && (!from || p.billing_frequency === from.billing_frequency),
  );
  const option = (p: (typeof recurring)[number]) => ({
    value: p.id,
    label: `${p.offering.name}: ${p.label}`,
  });
  const body = useMemo(
    () => ({
      subscription_ids: selected.map((c) => c.id),
      price_id: toPrice ?? "",
      ...(date ? { transition_takes_effect_at: date } : {}),
    }),
    [selected, toPrice, date],
  );

  const send = useAction(
    async (kind: "preview" | "schedule") => {
      if (kind === "preview") setPreview(await previewPriceChange(body));
      else {
        const done = await schedulePriceChange(body);
        toast.success(
          `Price change scheduled for ${done.length} ${done.length === 1 ? "member" : "members"}; they have been emailed`,
        );
        setSelected([]);
        setPreview(null);
        void mutate();
      }
    },
    {
      onError: (failure, kind) => {
        const fields = isApiError(failure) ? failure.errors : {};
        if (Object.keys(fields).length) {
          setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v[0] ?? ""])));
          setPreview(null);
        } else
          toastApiError(failure, kind === "preview" ? "No preview" : "The price change was not scheduled");
      },
    },
  );
  const busy = send.runningWith?.[0] ?? null;

  const reset = () => {
    setPreview(null);
    setErrors({});
  };

  const run = async (kind: "preview" | "schedule") => {
    const missing: Record<string, string> = {};
    if (!selected.length) missing.subscription_ids = "Pick at least one member.";
    if (!toPrice) missing.price_id = "Value is required";
    if (selected.length > MAX_AT_ONCE)
      missing.subscription_ids = `Pick at most ${MAX_AT_ONCE} members at once.`;
    setErrors(missing);
    if (Object.keys(missing).length) return;
    void send.run(kind);
  };

  return (
    <Container size="lg" py="lg">
      <Stack gap="lg">
        <Stack gap={4}>
          <Anchor component={Link} to="/members" size="sm">
            Members
          </Anchor>
          <Title order={1}>Change price</Title>
          <Text c="dimmed">
            Move members from one price to another from a date. Each member is emailed the change when it is
            scheduled.
          </Text>
        </Stack>

        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Members on the price"
            placeholder={prices ? "Choose a price" : "Loading prices…"}
            searchable
            data={recurring.map(option)}
            value={fromPrice}
            onChange={(value) => {
              setFromPrice(value);
              setSelected([]);
              setToPrice(null);
              reset();
            }}
          />
          {gyms.length > 1 && (
            <Select
              label="At gym"
              placeholder="All your gyms"
              clearable
              data={gyms.map((g) => ({ value: g.id, label: g.name }))}
              value={gymId}
              onChange={(value) => {
                setGymId(value);
                setSelected([]);
                reset();
              }}
            />
          )}
        </SimpleGrid>

        {fromPrice && (
          <Stack gap="xs">
            <Group justify="space-between">
              <Text fw={600}>
                {selected.length} of {candidates?.length ?? 0} members picked
              </Text>
              {errors.subscription_ids && (
                <Text c="red" size="sm">
                  {errors.subscription_ids}
                </Text>
              )}
            </Group>
            <DataTable
              withTableBorder
              borderRadius="md"
              minHeight={candidates?.length ? undefined : 150}
              fetching={isLoading}
              noRecordsText="Nobody is on this price at your gyms"
              records={candidates ?? []}
              idAccessor="id"
              aria-label="Members on the price"
              selectedRecords={selected}
              onSelectedRecordsChange={(records) => {
                setSelected(records);
                reset();
              }}
              isRecordSelectable={(c) => !c.has_scheduled_price_change}
              columns={[
                {
                  accessor: "member.name",
                  title: "Member",
                  render: (c) => (
                    <Stack gap={0}>
                      <Anchor component={Link} to={`/members/${c.member.id}`} size="sm" fw={600}>
                        {c.member.name}
                      </Anchor>
                      <Text size="xs" c="dimmed">
                        {c.member.email}
                      </Text>
                    </Stack>
                  ),
                },
                { accessor: "gym.name", title: "Gym", ...wideScreensOnly },
                { accessor: "formatted_amount", title: "Pays", textAlign: "right" },
                {
                  accessor: "card_colour",
                  title: <VisuallyHidden>Standing</VisuallyHidden>,
                  render: (c) =>
                    c.has_scheduled_price_change ? (
                      <Badge color="gray" variant="light">
                        Change scheduled
                      </Badge>
                    ) : (
                      <Badge color={CARD_COLOURS[c.card_colour]} variant="dot">
                        {c.card_colour === "green"
                          ? "Healthy"
                          : c.card_colour === "amber"
                            ? "Needs attention"
                            : "Ended"}
                      </Badge>
                    ),
                },
              ]}
            />
          </Stack>
        )}

        {fromPrice && (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label="New price"
              withAsterisk
              placeholder="Choose the new price"
              description="Prices billed as often as the current one"
              data={targets.map(option)}
              value={toPrice}
              error={errors.price_id}
              onChange={(value) => {
                setToPrice(value);
                reset();
              }}
            />
            <DateField
              label="From"
              description="Leave empty for each member's next period end (for a rise, the first one after the notice period)"
              clearable
              value={date}
              error={errors.transition_takes_effect_at}
              onChange={(value) => {
                setDate(value ? String(value).slice(0, 10) : null);
                reset();
              }}
            />
          </SimpleGrid>
        )}

        {fromPrice && (
          <Group justify="flex-end">
            <Button
              variant="default"
              leftSection={<IconMail size={16} />}
              loading={busy === "preview"}
              disabled={busy === "schedule"}
              onClick={() => run("preview")}
            >
              Preview emails
            </Button>
            <Button
              disabled={!preview || busy === "preview"}
              loading={busy === "schedule"}
              onClick={() => run("schedule")}
            >
              Schedule price change
            </Button>
          </Group>
        )}

        {preview && (
          <Stack gap="xs" aria-label="Email preview">
            <Alert
              color="blue"
              title={`${preview.length} ${preview.length === 1 ? "email" : "emails"} will be sent`}
            >
              Read them below, then schedule the change. Replies go to{" "}
              {preview[0]?.reply_to ?? "the organisation's address"}.
            </Alert>
            <Accordion variant="separated" defaultValue={preview[0]?.subscription_id}>
              {preview.map((email) => (
                <Accordion.Item key={email.subscription_id} value={email.subscription_id}>
                  <Accordion.Control>
                    <Group justify="space-between" wrap="nowrap" pr="sm">
                      <Text size="sm" fw={600}>
                        {email.member_name}
                      </Text>
                      <Text size="sm" c="dimmed">
                        from {formatDate(email.takes_effect_on)}
                      </Text>
                    </Group>
                  </Accordion.Control>
                  <Accordion.Panel>
                    <Text size="xs" c="dimmed">
                      To {email.to} · {email.subject}
                    </Text>
                    <Text size="sm" style={{ whiteSpace: "pre-wrap" }} mt="xs">
                      {email.text}
                    </Text>
                  </Accordion.Panel>
                </Accordion.Item>
              ))}
            </Accordion>
          </Stack>
        )}
      </Stack>
    </Container>
  );
}

export { ChangePriceRoute as Component };
