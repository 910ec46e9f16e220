import { Paper, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** One titled card of the gym edit page; `id` is the anchor the section list links to. */
export function Section({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="lg" id={id} component="section" aria-labelledby={`${id}-title`}>
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={2} fz="h4" id={`${id}-title`}>
            {title}
          </Title>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}
