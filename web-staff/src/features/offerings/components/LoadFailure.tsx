import type { ApiError } from "@gym/web/api";
import { NotFoundPage } from "@gym/web/app";
import { Alert, Button, Container } from "@mantine/core";
import { IconAlertCircle } from "@tabler/icons-react";

/** A page whose data did not load: not found (also another organisation's id), or the server's message. */
export function LoadFailure({
  error,
  onRetry,
  what,
}: {
  error: ApiError;
  onRetry: () => void;
  what: string;
}) {
  if (error.status === 404) return <NotFoundPage homeHref="/offerings" homeLabel="Back to offerings" />;
  return (
    <Container size="lg" py="lg">
      <Alert color="red" icon={<IconAlertCircle size={18} />} title={`Could not load ${what}`}>
        {error.message}
        <div>
          <Button mt="sm" variant="light" color="red" onClick={onRetry}>
            Try again
          </Button>
        </div>
      </Alert>
    </Container>
  );
}
