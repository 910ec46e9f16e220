import { Button, Center, Code, Container, Group, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconAlertTriangle, IconCompassOff, IconRefresh } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { isRouteErrorResponse, Link, useRouteError } from "react-router-dom";
import { useMainTag } from "./landmarks";

interface MessagePageProps {
  icon: ReactNode;
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}

function MessagePage({ icon, title, children, actions }: MessagePageProps) {
  useDocumentTitle(title);
  const main = useMainTag();
  return (
    <Container size="sm">
      <Center component={main} mih="70vh">
        <Stack align="center" gap="md" ta="center">
          {icon}
          <Title order={1} fz={{ base: 26, sm: 32 }}>
            {title}
          </Title>
          <Text c="dimmed" maw={460}>
            {children}
          </Text>
          {actions && <Group justify="center">{actions}</Group>}
        </Stack>
      </Center>
    </Container>
  );
}

export interface NotFoundPageProps {
  homeHref?: string;
  homeLabel?: string;
}

export function NotFoundPage({ homeHref = "/", homeLabel = "Back to the start" }: NotFoundPageProps) {
  return (
    <MessagePage
      title="Page not found"
      icon={
        <ThemeIcon size={64} radius="xl" variant="light" color="gray">
          <IconCompassOff size={34} />
        </ThemeIcon>
      }
      actions={
        <Button component={Link} to={homeHref}>
          {homeLabel}
        </Button>
      }
    >
      The page you were looking for does not exist or has moved.
    </MessagePage>
  );
}

/** A dynamic import failed: usually a new release replaced the old chunks. */
function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(
      error.message,
    )
  );
}

export interface ErrorPageProps {
  error?: unknown;
  onRetry?: () => void;
}

export function ErrorPage({ error, onRetry }: ErrorPageProps) {
  const reload = onRetry ?? (() => window.location.reload());
  const chunk = isChunkLoadError(error);
  return (
    <MessagePage
      title={chunk ? "A new version is available" : "Something went wrong"}
      icon={
        <ThemeIcon size={64} radius="xl" variant="light" color={chunk ? "indigo" : "red"}>
          {chunk ? <IconRefresh size={34} /> : <IconAlertTriangle size={34} />}
        </ThemeIcon>
      }
      actions={
        <Button leftSection={<IconRefresh size={18} />} onClick={reload}>
          Reload the page
        </Button>
      }
    >
      {chunk
        ? "The app was updated while this page was open. Reload to continue."
        : "An unexpected error stopped this page. Reload to try again; if it keeps happening, contact support."}
      {process.env.NODE_ENV !== "production" && error instanceof Error && !chunk ? (
        <Code block mt="md" ta="left">
          {error.stack ?? error.message}
        </Code>
      ) : null}
    </MessagePage>
  );
}

/** `errorElement` for routes: 404s show the not-found page, anything else the error page. */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return <ErrorPage error={error} />;
}
