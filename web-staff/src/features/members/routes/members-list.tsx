import { labelOf, memberStateLabels, paymentKindLabels } from "@gym/core/contract/labels";
import { isApiError, useListAddress } from "@gym/web/api";
import { administersGym, staffGymsOf, useAuth } from "@gym/web/auth";
import { ExportButton } from "@gym/web/exports";
import { formatDate } from "@gym/web/format";
import { CursorPager, PageHeader } from "@gym/web/ui";
import {
  Alert,
  Anchor,
  Avatar,
  Button,
  Container,
  Group,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconAlertCircle, IconPlus } from "@tabler/icons-react";
import { DataTable } from "mantine-datatable";
import { useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import {
  type MemberFilterValues,
  type MemberListItem,
  memberExportBody,
  memberSearch,
  useMembers,
  writeMemberSearch,
} from "../api/members";
import { StateBadge } from "../components/StateBadge";

/**
 * /members (members.index): the organisation's members by name (or newest joined), filtered by
 * membership state, gym, payment type and tag. Filters, the page's cursor and its number live in
 * the address, so Back returns to the previous page and a reload keeps it.
 */
export function MembersListRoute() {
  useDocumentTitle("Members");
  const { user } = useAuth();
  const navigate = useNavigate();
  const { filters, cursor, page, set } = useListAddress(memberSearch);
  const { data, error, isLoading, isValidating, mutate } = useMembers(filters, cursor);
  const [tag, setTag] = useState(filters.tag ?? "");

  if (!user) return null;
  const members = data?.data ?? [];
  const nextCursor = data?.meta.next_cursor ?? null;
  const gyms = staffGymsOf(user);
  const canAddPif = administersGym(user);

  return (
    <Container size="xl" py="lg">
      <Stack gap="lg">
        <PageHeader
          title="Members"
          description="Everyone with a membership or an account at your gyms."
          actions={
            canAddPif && (
              <>
                <ExportButton path="/api/members/export" body={memberExportBody(filters)} noun="members" />
                <Button component={Link} to="/members/change-price" variant="default">
                  Change price
                </Button>
                <Button component={Link} to="/members/pif" leftSection={<IconPlus size={16} />}>
                  Add pay-in-full member
                </Button>
              </>
            )
          }
        />
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            label="State"
            placeholder="Any state"
            clearable
            data={Object.entries(memberStateLabels).map(([value, label]) => ({ value, label }))}
            value={filters.state}
            onChange={(v) => set({ state: (v as MemberFilterValues["state"]) ?? null })}
            w={170}
          />
          {gyms.length > 1 && (
            <Select
              label="Gym"
              placeholder="Every gym"
              clearable
              data={gyms.map((g) => ({ value: g.id, label: g.name }))}
              value={filters.gym_id}
              onChange={(v) => set({ gym_id: v ?? null })}
              w={230}
            />
          )}
          <Select
            label="Payment type"
            placeholder="Any"
            clearable
            data={Object.entries(paymentKindLabels).map(([value, label]) => ({ value, label }))}
            value={filters.payment_type}
            onChange={(v) => set({ payment_type: (v as MemberFilterValues["payment_type"]) ?? null })}
            w={160}
          />
          <form
            onSubmit={(event) => {
              event.preventDefault();
              set({ tag: tag.trim() || null });
            }}
          >
            <TextInput
              label="Tag"
              placeholder="Any tag"
              value={tag}
              onChange={(e) => setTag(e.currentTarget.value)}
              onBlur={() => (tag.trim() || null) !== filters.tag && set({ tag: tag.trim() || null })}
              w={150}
            />
          </form>
          <Select
            label="Sort by"
            data={[
              { value: "name", label: "Name" },
              { value: "joined", label: "Newest joined" },
            ]}
            value={filters.sort ?? "name"}
            onChange={(v) => set({ sort: v === "joined" ? "joined" : null })}
            w={160}
            allowDeselect={false}
          />
        </Group>
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not load members">
            {isApiError(error) && error.status === 422 ? "These filters are not valid." : error.message}
            <div>
              <Button mt="sm" variant="light" color="red" onClick={() => void mutate()}>
                Try again
              </Button>
            </div>
          </Alert>
        )}
        {isLoading && !data ? (
          <Skeleton h={320} radius="md" />
        ) : (
          <DataTable
            withTableBorder
            borderRadius="md"
            striped
            highlightOnHover
            minHeight={members.length ? undefined : 160}
            fetching={isValidating}
            records={members}
            idAccessor="id"
            noRecordsText="No members match these filters"
            onRowClick={({ record }) => navigate(`/members/${record.id}`)}
            columns={[
              {
                accessor: "name",
                title: "Member",
                render: (m) => (
                  <Group gap="sm" wrap="nowrap">
                    {/* Staff at the desk know members by face. */}
                    <Avatar
                      src={m.profile_picture}
                      name={m.name}
                      alt=""
                      size={36}
                      radius="xl"
                      color="initials"
                    />
                    <Stack gap={0} style={{ minWidth: 0 }}>
                      <Anchor component={Link} to={`/members/${m.id}`} fw={600} size="sm">
                        {m.name}
                      </Anchor>
                      <Email address={m.email} />
                      {/* On a phone the membership column is folded in here (no sideways scrolling). */}
                      {m.latest_subscription && (
                        <Text size="xs" hiddenFrom="sm">
                          {membershipLine(m.latest_subscription)}
                        </Text>
                      )}
                    </Stack>
                  </Group>
                ),
              },
              {
                accessor: "state",
                title: "State",
                render: (m) => <StateBadge state={m.state} colour={m.card_colour} />,
              },
              {
                accessor: "membership",
                title: "Membership",
                visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
                render: (m) =>
                  m.latest_subscription ? (
                    <Stack gap={0}>
                      <Text size="sm">{m.latest_subscription.offering.name}</Text>
                      <Text size="xs" c="dimmed">
                        {detailLine(m.latest_subscription)}
                      </Text>
                    </Stack>
                  ) : (
                    <Text size="sm" c="dimmed">
                      –
                    </Text>
                  ),
              },
              {
                accessor: "gym",
                title: "Gym",
                visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.md})`,
                render: (m) => m.latest_subscription?.gym.name ?? "–",
              },
              {
                accessor: "payment",
                title: "Pays by",
                visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.md})`,
                render: (m) =>
                  m.latest_subscription
                    ? labelOf(paymentKindLabels, m.latest_subscription.payment_method)
                    : "–",
              },
              {
                accessor: "tags",
                title: "Tags",
                visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.lg})`,
                render: (m) => m.tags.join(", "),
              },
              {
                accessor: "joined_at",
                title: "Joined",
                visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
                render: (m) => formatDate(m.joined_at),
              },
            ]}
          />
        )}
        <CursorPager
          page={page}
          summary={`${members.length} ${members.length === 1 ? "member" : "members"} shown`}
          firstPage={writeMemberSearch(filters)}
          next={nextCursor ? writeMemberSearch(filters, nextCursor, page + 1) : null}
        />
      </Stack>
    </Container>
  );
}

type Summary = NonNullable<MemberListItem["latest_subscription"]>;

/**
 * "$20.00 Weekly · 12M Term", not "… · 12M Term · 12M Term": the membership type only when the
 * price's label does not already say it.
 */
function detailLine(sub: Summary): string {
  const label = sub.price.label ?? "";
  const type = sub.membership_type && !label.includes(sub.membership_type) ? sub.membership_type : "";
  return [label, type].filter(Boolean).join(" · ");
}

/** An email that may wrap only before its "@" (never mid-name or mid-domain) on a narrow screen. */
function Email({ address }: { address: string }) {
  const at = address.lastIndexOf("@");
  return (
    <Text size="xs" c="dimmed" data-testid="member-email">
      {at > 0 ? (
        <>
          {address.slice(0, at)}
          <wbr />
          {address.slice(at)}
        </>
      ) : (
        address
      )}
    </Text>
  );
}

function membershipLine(sub: Summary): string {
  return [sub.offering.name, detailLine(sub)].filter(Boolean).join(" · ");
}

export { MembersListRoute as Component };
