import { labelOf, paymentKindLabels } from "@gym/core/contract/labels";
import { nextPaymentLabel } from "@gym/core/contract/payment";
import { isApiError, useRevalidateUnder } from "@gym/web/api";
import { administersGym, useAuth } from "@gym/web/auth";
import { formatDate, formatLastDay, formatPause } from "@gym/web/format";
import { wideScreensOnlyCell } from "@gym/web/ui";
import {
  Alert,
  Anchor,
  Avatar,
  Badge,
  Box,
  Button,
  Card,
  Container,
  Grid,
  Group,
  Modal,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import { useDisclosure, useDocumentTitle } from "@mantine/hooks";
import { IconAlertCircle, IconArrowLeft, IconHistory, IconPencil } from "@tabler/icons-react";
import { lazy, type ReactNode, Suspense } from "react";
import { Link, useParams } from "react-router-dom";
import { useSubscription } from "../../memberships/api/memberships";
import { SubscriptionCard } from "../../memberships/components/SubscriptionCard";
import { StatusBadge } from "../../payments/components/StatusBadge";
import { seesMoney } from "../../shell/navigation";
import { DoorAccessPanel } from "../../visits/components/DoorAccessPanel";
import { type Member, useMember } from "../api/members";
import { DetailsForm, NotesTagsForm } from "../components/MemberForms";
import { NotificationSwitches } from "../components/NotificationSwitches";
import { StateBadge } from "../components/StateBadge";

/** The charts carry @mantine/charts (recharts): loaded only when a member page opens. */
const MemberCharts = lazy(() => import("../../visits/components/MemberCharts"));

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ta="right" component="div">
        {children || "–"}
      </Text>
    </Group>
  );
}

function Panel({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title}>
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="h4">
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Card>
  );
}

function SubscriptionPanel({ member }: { member: Member }) {
  const sub = member.latest_subscription;
  if (!sub)
    return (
      <Panel title="Membership">
        <Text size="sm" c="dimmed">
          No membership yet.
        </Text>
      </Panel>
    );
  return (
    <Panel title="Membership" action={<StateBadge state={member.state} colour={sub.card_colour} />}>
      <Stack gap={6}>
        <Row label="Membership">{sub.price.offering.name}</Row>
        <Row label="Price">
          {sub.price.label ?? sub.price.formatted_amount} · {sub.membership_type}
        </Row>
        <Row label="Gym">{sub.gym.name}</Row>
        <Row label="Pays by">{labelOf(paymentKindLabels, sub.payment_method)}</Row>
        <Row label="Started">{formatDate(sub.start_date)}</Row>
        <Row label="Current period">
          {sub.current_period_start
            ? `${formatDate(sub.current_period_start)} – ${formatLastDay(sub.current_period_end)}`
            : "–"}
        </Row>
        {sub.upcoming_payment && (
          <Row label={nextPaymentLabel(sub.upcoming_payment)}>
            {sub.upcoming_payment.formatted_total} on {formatDate(sub.upcoming_payment.due_on)}
          </Row>
        )}
        {sub.balance_owing > 0 && (
          <Row label="Owing">
            <Text c="red" size="sm" fw={600}>
              {/* The owed figure as it will be retried (the quote), its surcharge split out: one figure (tour item 5). */}
              {sub.next_charge?.kind === "balance_owing" && sub.next_charge.surcharge > 0
                ? `${sub.next_charge.formatted_total} (${sub.next_charge.formatted_amount} and a ${sub.next_charge.formatted_surcharge} card surcharge)`
                : sub.formatted_balance_owing}{" "}
              ({sub.periods_owing} periods)
            </Text>
          </Row>
        )}
        {sub.in_grace_period && <Row label="Grace period ends">{formatDate(sub.grace_period_ends_at)}</Row>}
        {sub.is_paused && <Row label="Paused">{formatPause(sub)}</Row>}
        {sub.is_cancelled && (
          // Cancelling until the last day has passed (tour item 7); the last day shown, included.
          <Row label={sub.cancellation_taken_effect ? "Cancelled" : "Cancelling"}>
            {sub.cancellation_taken_effect ? "Last day was" : "Last day"}{" "}
            {formatLastDay(sub.cancellation_effective_at)}
          </Row>
        )}
        {sub.on_cooling_period && (
          <Row label="Cooling-off ends">{formatDate(sub.cooling_period_ends_at)}</Row>
        )}
        {sub.pending_price_change && (
          <Row label="Price change">
            to {sub.pending_price_change.label ?? sub.pending_price_change.formatted_amount} from{" "}
            {formatDate(sub.pending_price_change.takes_effect_on)}
          </Row>
        )}
        <Row label="Door access">
          <Badge color={sub.door_access.standing ? "green" : "red"} variant="light">
            {sub.door_access.standing ? "Allowed" : "Not allowed"}
          </Badge>
        </Row>
      </Stack>
    </Panel>
  );
}

/**
 * The membership card with its lifecycle actions (pause, cancel, undo, start now, manual payment)
 * from the memberships feature, on the latest subscription; the summary panel while it loads.
 */
function Membership({
  member,
  canChange,
  onChanged,
}: {
  member: Member;
  canChange: boolean;
  onChanged: () => void;
}) {
  const { data, mutate } = useSubscription(member.latest_subscription?.id ?? null);
  if (!data) return <SubscriptionPanel member={member} />;
  return (
    <SubscriptionCard
      subscription={data}
      canChange={canChange}
      onChanged={(next) => {
        void mutate(next, { revalidate: false });
        onChanged();
      }}
    />
  );
}

/** /members/{id} (members.show): profile, membership, payments, notes and tags, emergency contact. */
export function MemberShowRoute() {
  const { id } = useParams();
  const { data: member, error, isLoading, mutate } = useMember(id);
  const { user } = useAuth();
  useDocumentTitle(member ? member.name : "Member");
  const [editing, edit] = useDisclosure(false);
  const revalidate = useRevalidateUnder();

  if (isLoading && !member) return <Skeleton m="lg" h={400} radius="md" />;
  if (error || !member)
    return (
      <Container size="md" py="lg">
        <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not load this member">
          {isApiError(error) && error.status === 404 ? "This member does not exist." : error?.message}
        </Alert>
      </Container>
    );
  const saved = (next: Member) => void mutate(next, { revalidate: false });
  const ec = member.emergency_contact;
  // The member's gym admins (and organisation admins) change their details and door access.
  const manages = Boolean(
    user && (user.is_organisation_admin || member.gyms.some((m) => administersGym(user, m.id))),
  );

  return (
    <Container size="xl" py="lg">
      <Stack gap="lg">
        <Anchor component={Link} to="/members" size="sm">
          <Group gap={4}>
            <IconArrowLeft size={14} /> Members
          </Group>
        </Anchor>
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Group gap="md">
            <Avatar
              src={member.profile_picture}
              size={96}
              radius="md"
              alt={member.profile_picture ? `Photo of ${member.name}` : ""}
            >
              {member.name
                .split(" ")
                .map((w) => w[0])
                .slice(0, 2)
                .join("")}
            </Avatar>
            <Stack gap={2}>
              <Group gap="sm">
                <Title order={1} fz="h2">
                  {member.name}
                </Title>
                <StateBadge state={member.state} colour={member.latest_subscription?.card_colour ?? null} />
                {member.deleted_at && <Badge color="gray">Deleted</Badge>}
              </Group>
              <Text size="sm" c="dimmed">
                {member.email}
                {member.mobile_number ? ` · ${member.mobile_number}` : ""} · joined{" "}
                {formatDate(member.created_at)}
              </Text>
              {member.tags.length > 0 && (
                <Group gap={4}>
                  {member.tags.map((t) => (
                    <Badge key={t} variant="outline" size="sm">
                      {t}
                    </Badge>
                  ))}
                </Group>
              )}
            </Stack>
          </Group>
          <Group gap="sm">
            <Button
              component={Link}
              to={`/members/${member.id}/activity`}
              variant="default"
              leftSection={<IconHistory size={16} />}
            >
              Activity
            </Button>
            {/* Only the member's gym admins may change their details (the API answers trainers 403). */}
            {manages && (
              <Button variant="light" leftSection={<IconPencil size={16} />} onClick={edit.open}>
                Edit details
              </Button>
            )}
          </Group>
        </Group>
        <Grid>
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack gap="lg">
              {member.latest_subscription ? (
                <Membership
                  member={member}
                  // Everything read about the member: a change of the membership (a desk payment
                  // clearing the debt) moves the door standing and the payments panels too.
                  onChanged={() =>
                    void revalidate(
                      `/api/members/${encodeURIComponent(member.id)}`,
                      `/api/users/${encodeURIComponent(member.id)}`,
                    )
                  }
                  canChange={Boolean(
                    user &&
                      (user.is_organisation_admin ||
                        user.gyms.some(
                          (g) => g.id === member.latest_subscription?.gym.id && g.role === "admin",
                        )),
                  )}
                />
              ) : (
                <SubscriptionPanel member={member} />
              )}
              <Suspense fallback={<Skeleton h={260} radius="md" />}>
                <MemberCharts userId={member.id} />
              </Suspense>
              <Panel title="Payments">
                {member.recent_payments.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    No payments yet.
                  </Text>
                ) : (
                  <Table.ScrollContainer minWidth={280}>
                    <Table verticalSpacing={6} aria-label="Payments">
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>Due</Table.Th>
                          <Table.Th {...wideScreensOnlyCell}>Status</Table.Th>
                          <Table.Th ta="right">Amount</Table.Th>
                          <Table.Th {...wideScreensOnlyCell}>For</Table.Th>
                          <Table.Th>
                            <VisuallyHidden>Receipt</VisuallyHidden>
                          </Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {member.recent_payments.map((p) => (
                          <Table.Tr key={p.id}>
                            <Table.Td>
                              {formatDate(p.due_on)}
                              {/* On a phone the status folds under the date (the members list's pattern). */}
                              <Box hiddenFrom="sm" mt={4}>
                                <StatusBadge status={p.status} cleared={p.cleared_after_failure} />
                              </Box>
                            </Table.Td>
                            <Table.Td {...wideScreensOnlyCell}>
                              <StatusBadge status={p.status} cleared={p.cleared_after_failure} />
                            </Table.Td>
                            <Table.Td ta="right">{p.formatted_total}</Table.Td>
                            <Table.Td {...wideScreensOnlyCell}>{p.price_label}</Table.Td>
                            <Table.Td>
                              {p.status === "sent" && user && seesMoney(user) && (
                                <Anchor component={Link} to={`/payments/${p.id}/receipt`} size="sm">
                                  Receipt
                                </Anchor>
                              )}
                            </Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </Table.ScrollContainer>
                )}
              </Panel>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Stack gap="lg">
              <DoorAccessPanel userId={member.id} canChange={manages} />
              <Panel title="Notes and tags">
                <NotesTagsForm key={member.updated_at} member={member} onSaved={saved} />
              </Panel>
              <Panel title="Contact">
                <Stack gap={6}>
                  <Row label="Email">{member.email}</Row>
                  <Row label="Mobile">{member.mobile_number}</Row>
                  <Row label="Date of birth">{member.dob ? formatDate(member.dob) : null}</Row>
                  <Row label="Address">
                    {[member.address, member.suburb, member.city, member.post_code]
                      .filter(Boolean)
                      .join(", ")}
                  </Row>
                  <Row label="Gyms">{member.gyms.map((g) => g.name).join(", ")}</Row>
                  <Row label="Payment method">{member.default_payment_type?.label}</Row>
                </Stack>
              </Panel>
              <Panel title="Notifications">
                <NotificationSwitches member={member} />
              </Panel>
              <Panel title="Emergency contact">
                {ec.name || ec.mobile_number || ec.email ? (
                  <SimpleGrid cols={1} spacing={6}>
                    <Row label="Name">{ec.name}</Row>
                    <Row label="Relationship">{ec.relationship}</Row>
                    <Row label="Mobile">{ec.mobile_number}</Row>
                    <Row label="Email">{ec.email}</Row>
                  </SimpleGrid>
                ) : (
                  <Text size="sm" c="dimmed">
                    None given.
                  </Text>
                )}
              </Panel>
            </Stack>
          </Grid.Col>
        </Grid>
      </Stack>
      <Modal opened={editing} onClose={edit.close} title="Edit member details" size="lg">
        <DetailsForm
          member={member}
          onCancel={edit.close}
          onSaved={(next) => {
            saved(next);
            edit.close();
          }}
        />
      </Modal>
    </Container>
  );
}

export { MemberShowRoute as Component };
