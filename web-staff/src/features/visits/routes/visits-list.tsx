import { isApiError, useListAddress } from "@gym/web/api";
import { administersGym, staffGymsOf, useAuth } from "@gym/web/auth";
import { ExportButton } from "@gym/web/exports";
import { formatDateTime } from "@gym/web/format";
import { DateField } from "@gym/web/forms/DateField";
import { CursorPager, PageHeader, wideScreensOnly } from "@gym/web/ui";
import { Alert, Anchor, Badge, Button, Container, Group, Select, Stack } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconAlertCircle } from "@tabler/icons-react";
import { DataTable } from "mantine-datatable";
import { Link } from "react-router-dom";
import { isLocalSite } from "../../payments/api/payments";
import { useVisits, visitExportBody, visitSearch, writeVisitSearch } from "../api/visits";
import { SimulatedUnlock } from "../components/SimulatedUnlock";

/**
 * /visits: door check-ins (Kisi unlocks on doors that track visits), newest first, by gym, member
 * and date range. Filters and the page's cursor live in the address, so Back returns to the
 * previous page.
 */
export function VisitsListRoute() {
  useDocumentTitle("Visits");
  const { user } = useAuth();
  const { filters, cursor, page, set } = useListAddress(visitSearch);
  const { data, error, isValidating, mutate } = useVisits(filters, cursor);
  if (!user) return null;
  const visits = data?.data ?? [];
  const nextCursor = data?.meta.next_cursor ?? null;
  const gyms = staffGymsOf(user);
  const canExport = administersGym(user);

  return (
    <Container size="xl" py="lg">
      <Stack gap="lg">
        <PageHeader
          title="Visits"
          description="Door check-ins at your gyms, from the doors that track visits."
          actions={
            canExport && (
              <ExportButton path="/api/visits/export" body={visitExportBody(filters)} noun="visits" />
            )
          }
        />
        {/* Local only; it reads the gyms' doors, which admins may see. */}
        {isLocalSite() && canExport && <SimulatedUnlock onSent={() => void mutate()} />}
        <Group gap="sm" align="flex-end" wrap="wrap">
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
          <DateField
            label="From"
            value={filters.from ?? null}
            onChange={(from) => set({ from: from || null })}
            clearable
            w={{ base: "calc(50% - 6px)", xs: 170 }}
          />
          <DateField
            label="To"
            value={filters.to ?? null}
            onChange={(to) => set({ to: to || null })}
            clearable
            w={{ base: "calc(50% - 6px)", xs: 170 }}
          />
          {filters.user_id && (
            <Button variant="default" onClick={() => set({ user_id: null })}>
              Every member
            </Button>
          )}
        </Group>
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not load visits">
            {isApiError(error) && error.status === 422 ? "These filters are not valid." : error.message}
          </Alert>
        )}
        <DataTable
          withTableBorder
          borderRadius="md"
          striped
          minHeight={visits.length ? undefined : 160}
          fetching={isValidating}
          records={visits}
          idAccessor="id"
          noRecordsText="No visits match these filters"
          columns={[
            { accessor: "visited_at", title: "When", render: (v) => formatDateTime(v.visited_at) },
            {
              accessor: "member_name",
              title: "Member",
              render: (v) => (
                <Anchor component={Link} to={`/members/${v.user_id}`} size="sm">
                  {v.member_name ?? v.user_id}
                </Anchor>
              ),
            },
            { accessor: "gym_name", title: "Gym", ...wideScreensOnly },
            { accessor: "door_name", title: "Door", ...wideScreensOnly },
            {
              accessor: "successful",
              title: "Result",
              render: (v) => (
                <Badge
                  color={v.successful ? "green" : "red"}
                  variant="light"
                  styles={{ root: { maxWidth: "none", flexShrink: 0 }, label: { overflow: "visible" } }}
                >
                  {v.successful ? "Entered" : "Denied"}
                </Badge>
              ),
            },
          ]}
        />
        <CursorPager
          page={page}
          firstPage={writeVisitSearch(filters)}
          next={nextCursor && visits.length > 0 ? writeVisitSearch(filters, nextCursor, page + 1) : null}
        />
      </Stack>
    </Container>
  );
}

export { VisitsListRoute as Component };
