import { PageHeader, wideScreensOnly } from "@gym/web/ui";
import { Anchor, Badge, Button, Container, Group, Skeleton, Stack, Tabs, Text } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import { DataTable } from "mantine-datatable";
import { useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { usePageTitle } from "../../../app/page-title";
import { type Offering, useOfferingOptions, useOfferings } from "../api/offerings";
import { LoadFailure } from "../components/LoadFailure";

function OfferingsTable({ offerings, empty }: { offerings: Offering[]; empty: string }) {
  const navigate = useNavigate();
  return (
    <DataTable
      withTableBorder
      borderRadius="md"
      verticalSpacing="md"
      highlightOnHover
      minHeight={offerings.length ? undefined : 180}
      noRecordsText={empty}
      records={offerings}
      idAccessor="id"
      onRowClick={({ record }) => navigate(`/offerings/${record.id}`)}
      aria-label="Offerings"
      columns={[
        {
          accessor: "name",
          title: "Offering",
          render: (offering) => (
            <Stack gap={2}>
              <Anchor
                component={Link}
                to={`/offerings/${offering.id}`}
                fw={600}
                onClick={(event) => event.stopPropagation()}
              >
                {offering.name}
              </Anchor>
              <Text size="xs" c="dimmed">
                {offering.subtitle_formatted}
              </Text>
              <TypeBadge offering={offering} hiddenFrom="sm" />
            </Stack>
          ),
        },
        {
          accessor: "type_label",
          title: "Type",
          noWrap: true,
          ...wideScreensOnly,
          render: (offering) => <TypeBadge offering={offering} />,
        },
        {
          accessor: "prices",
          title: "Prices",
          ...wideScreensOnly,
          render: (offering) => {
            const active = offering.prices.filter((price) => !price.archived_at);
            if (active.length === 0)
              return (
                <Text size="sm" c="dimmed">
                  No prices
                </Text>
              );
            return (
              <Stack gap={2}>
                {active.map((price) => (
                  <Text key={price.id} size="sm">
                    {price.label}
                    {price.private ? " (private)" : ""}
                  </Text>
                ))}
              </Stack>
            );
          },
        },
        { accessor: "frequencies_formatted", title: "Frequencies", ...wideScreensOnly },
        { accessor: "subscriptions_count", title: "Members", textAlign: "right" },
      ]}
    />
  );
}

/** /offerings: the organisation's offerings, active and archived, with their prices summarised. */
/** The offering's type; on phones it sits under the name instead of in its own column. */
function TypeBadge({ offering, hiddenFrom }: { offering: Offering; hiddenFrom?: "sm" }) {
  return (
    <Badge
      variant="light"
      color={offering.type === "24_7" ? "blue" : "orange"}
      hiddenFrom={hiddenFrom}
      w="fit-content"
    >
      {offering.type_label}
    </Badge>
  );
}

export function OfferingsListRoute() {
  usePageTitle("Offerings");
  const { data, error, isLoading, mutate } = useOfferings();
  const { data: options } = useOfferingOptions();
  const [tab, setTab] = useState<string | null>("active");

  if (error && !data) return <LoadFailure error={error} onRetry={() => void mutate()} what="offerings" />;
  const offerings = data ?? [];
  const active = offerings.filter((o) => !o.archived_at);
  const archived = offerings.filter((o) => o.archived_at);

  return (
    <Container size="xl" py="lg">
      <Stack gap="lg">
        <PageHeader
          title="Offerings"
          description="The memberships your organisation sells, and their prices."
          actions={
            options?.can_manage && (
              <Button component={Link} to="/offerings/create" leftSection={<IconPlus size={16} />}>
                Create offering
              </Button>
            )
          }
        />
        {options && !options.enable_offerings && (
          <Text c="dimmed" size="sm">
            Offerings are turned off for your organisation. An organisation admin can turn them on in
            Settings.
          </Text>
        )}
        {isLoading ? (
          <Skeleton h={240} radius="md" />
        ) : (
          <Tabs value={tab} onChange={setTab} keepMounted={false}>
            <Tabs.List mb="md">
              <Tabs.Tab value="active">
                <Group gap={6}>
                  Active
                  <Badge size="sm" variant="light">
                    {active.length}
                  </Badge>
                </Group>
              </Tabs.Tab>
              <Tabs.Tab value="archived">
                <Group gap={6}>
                  Archived
                  <Badge size="sm" variant="light" color="gray">
                    {archived.length}
                  </Badge>
                </Group>
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="active">
              <OfferingsTable offerings={active} empty="No offerings yet" />
            </Tabs.Panel>
            <Tabs.Panel value="archived">
              <OfferingsTable offerings={archived} empty="No archived offerings" />
            </Tabs.Panel>
          </Tabs>
        )}
      </Stack>
    </Container>
  );
}

export { OfferingsListRoute as Component };
