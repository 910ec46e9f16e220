import { wideScreensOnly } from "@gym/web/ui";
import { Anchor, Badge, Container, Stack, Text, Title, VisuallyHidden } from "@mantine/core";
import { DataTable } from "mantine-datatable";
import { Link } from "react-router-dom";
import { usePageTitle } from "../../../app/page-title";
import { roleLabel, useGyms } from "../api/gyms";
import { GymAdminsOnly, GymLoadFailure } from "../components/Access";

/** /gyms: name, staff and member counts, the user's role (spec 000 §2). */
export function GymsListRoute() {
  usePageTitle("Gyms");
  const { data, error, isLoading, mutate } = useGyms();
  if (error && !data) return <GymLoadFailure error={error} onRetry={() => void mutate()} />;
  return (
    <GymAdminsOnly>
      <Container size="lg" py="lg">
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={1} fz="h2">
              Gyms
            </Title>
            <Text c="dimmed" size="sm">
              Bank accounts, card payments, doors and visit tracking of each gym.
            </Text>
          </Stack>
          <DataTable
            withTableBorder
            borderRadius="md"
            minHeight={160}
            fetching={isLoading}
            records={data ?? []}
            noRecordsText="No gyms yet"
            aria-label="Gyms"
            columns={[
              {
                accessor: "name",
                title: "Name",
                render: (gym) => (
                  <Anchor component={Link} to={`/gyms/${gym.id}`}>
                    {gym.name}
                  </Anchor>
                ),
              },
              { accessor: "staff_count", title: "Staff", textAlign: "right" },
              { accessor: "members_count", title: "Members", textAlign: "right" },
              {
                accessor: "role",
                title: "Your role",
                render: (gym) => roleLabel(gym.role),
                ...wideScreensOnly,
              },
              {
                accessor: "selected",
                title: <VisuallyHidden>Current gym</VisuallyHidden>,
                render: (gym) =>
                  gym.selected ? (
                    <Badge variant="light" size="sm">
                      Current
                    </Badge>
                  ) : null,
              },
            ]}
          />
        </Stack>
      </Container>
    </GymAdminsOnly>
  );
}

export { GymsListRoute as Component };
