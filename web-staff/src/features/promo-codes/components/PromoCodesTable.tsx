import { type PromoCode, promoCodeStatusLabels } from "@gym/core/contract/promo";
import { formatDate } from "@gym/web/format";
import { wideScreensOnly } from "@gym/web/ui";
import { Badge, Box, Button, Group, Stack, Text, VisuallyHidden } from "@mantine/core";
import { DataTable } from "mantine-datatable";

const statusColours: Record<PromoCode["status"], string> = {
  active: "green",
  scheduled: "blue",
  expired: "gray",
  used_up: "orange",
  archived: "gray",
};

/** "1/12/2026 to 31/12/2026", "From 1/12/2026", "Until 31/12/2026", "Any time". */
export function promoDates(code: Pick<PromoCode, "starts_on" | "ends_on">): string {
  const from = code.starts_on ? formatDate(code.starts_on) : null;
  const to = code.ends_on ? formatDate(code.ends_on) : null;
  if (from && to) return `${from} to ${to}`;
  if (from) return `From ${from}`;
  if (to) return `Until ${to}`;
  return "Any time";
}

const discount = (code: PromoCode) => `${code.summary}${code.gym ? ` (${code.gym.name})` : ""}`;

function StatusBadge({ code }: { code: PromoCode }) {
  return (
    <Badge variant="light" color={statusColours[code.status]}>
      {promoCodeStatusLabels[code.status]}
    </Badge>
  );
}

const uses = (code: PromoCode) => `${code.uses}${code.use_limit != null ? ` of ${code.use_limit}` : ""}`;

/**
 * The organisation's codes: what each takes off (and where), its dates, its uses and status. On a
 * phone the dates and uses fold under the code, so the list fits without sideways scrolling.
 */
export function PromoCodesTable({
  codes,
  loading,
  onEdit,
  onArchive,
}: {
  codes: PromoCode[];
  loading: boolean;
  onEdit: (code: PromoCode) => void;
  onArchive: (code: PromoCode) => void;
}) {
  return (
    <DataTable
      withTableBorder
      borderRadius="md"
      minHeight={codes.length ? undefined : 150}
      fetching={loading}
      records={codes}
      idAccessor="id"
      noRecordsText="No codes yet"
      aria-label="Promo codes"
      columns={[
        {
          accessor: "code",
          title: "Code",
          render: (code) => (
            <Stack gap={2} align="flex-start">
              <Text fw={700} size="sm">
                {code.code}
              </Text>
              {/* On a phone the other columns fold in here (no sideways scrolling). */}
              <Text size="xs" hiddenFrom="sm">
                {discount(code)}
              </Text>
              <Text size="xs" c="gray.7" hiddenFrom="sm">
                {promoDates(code)} · {uses(code)} used
              </Text>
              <Box hiddenFrom="sm">
                <StatusBadge code={code} />
              </Box>
            </Stack>
          ),
        },
        {
          accessor: "summary",
          title: "Discount",
          ...wideScreensOnly,
          render: discount,
        },
        { accessor: "starts_on", title: "Dates", ...wideScreensOnly, render: promoDates },
        { accessor: "uses", title: "Uses", ...wideScreensOnly, render: uses },
        {
          accessor: "status",
          title: "Status",
          ...wideScreensOnly,
          render: (code) => <StatusBadge code={code} />,
        },
        {
          accessor: "actions",
          title: <VisuallyHidden>Actions</VisuallyHidden>,
          textAlign: "right",
          render: (code) =>
            code.archived_at ? null : (
              <Group gap={4} justify="flex-end">
                <Button
                  size="compact-sm"
                  variant="subtle"
                  onClick={() => onEdit(code)}
                  aria-label={`Change ${code.code}`}
                >
                  Change
                </Button>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="red"
                  onClick={() => onArchive(code)}
                  aria-label={`Archive ${code.code}`}
                >
                  Archive
                </Button>
              </Group>
            ),
        },
      ]}
    />
  );
}
