import { PlaceholderPage } from "@gym/web/ui";
import { Anchor, Container, Text } from "@mantine/core";
import { Link, useLocation } from "react-router-dom";
import { usePageTitle } from "../../../app/page-title";
import { allLinks, isLinkActive } from "../navigation";

/**
 * A sidebar entry whose screen is still being built: titled like the entry, inside the layout,
 * so the sidebar never leads to a 404.
 */
export function ComingSoonRoute() {
  const { pathname } = useLocation();
  const entry = allLinks().find((link) => isLinkActive(link, pathname));
  const title = entry?.label ?? "Coming soon";
  usePageTitle(title);
  return (
    <Container size="sm" py={{ base: "md", sm: 48 }}>
      <PlaceholderPage title={title} description={entry?.description}>
        <Text size="sm" c="dimmed">
          This screen is on its way.{" "}
          <Anchor component={Link} to="/dashboard" size="sm">
            Back to the dashboard
          </Anchor>
        </Text>
      </PlaceholderPage>
    </Container>
  );
}

export { ComingSoonRoute as Component };
