import { Button, Group, Text } from "@mantine/core";
import { IconChevronLeft, IconChevronRight } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useLocation, useNavigate } from "react-router-dom";

/**
 * Previous / Next under a cursor-paged list whose page lives in the address bar. Previous goes
 * Back when there is history (so the previous page's cursor and scroll come back), otherwise to
 * the first page (`firstPage`: the address without cursor); Next shows only when there is a next
 * page (`next`: its address).
 */
export function CursorPager({
  page,
  summary,
  firstPage,
  next,
}: {
  page: number;
  summary?: ReactNode;
  firstPage: URLSearchParams;
  next: URLSearchParams | null;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const go = (params: URLSearchParams) =>
    navigate({ pathname: location.pathname, search: params.toString() ? `?${params}` : "" });
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        Page {page}
        {summary ? <> · {summary}</> : null}
      </Text>
      <Group gap="xs">
        {page > 1 && (
          <Button
            variant="default"
            leftSection={<IconChevronLeft size={16} />}
            onClick={() => (location.key !== "default" ? navigate(-1) : go(firstPage))}
          >
            Previous
          </Button>
        )}
        {next && (
          <Button variant="default" rightSection={<IconChevronRight size={16} />} onClick={() => go(next)}>
            Next
          </Button>
        )}
      </Group>
    </Group>
  );
}
