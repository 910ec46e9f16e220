import { Anchor, Breadcrumbs, Group, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";

export interface PageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  /** Links above the title: [label, href] pairs. */
  trail?: [string, string][];
  badges?: ReactNode;
  actions?: ReactNode;
}

/** A page's title row: breadcrumbs, title with badges, description, and actions on the right. */
export function PageHeader({ title, description, trail, badges, actions }: PageHeaderProps) {
  return (
    <Group justify="space-between" align="flex-end" wrap="wrap" gap="md">
      <Stack gap={4}>
        {trail && (
          <Breadcrumbs separatorMargin={6}>
            {trail.map(([label, href]) => (
              <Anchor key={href} component={Link} to={href} size="sm">
                {label}
              </Anchor>
            ))}
          </Breadcrumbs>
        )}
        <Group gap="sm" align="center">
          <Title order={1} fz="h2">
            {title}
          </Title>
          {badges}
        </Group>
        {description && (
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        )}
      </Stack>
      {actions && <Group gap="sm">{actions}</Group>}
    </Group>
  );
}
