import type { ApiError } from "@gym/web/api";
import { NotFoundPage } from "@gym/web/app";
import { useAuth } from "@gym/web/auth";
import { Alert, Button, Container } from "@mantine/core";
import { IconAlertCircle } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { Navigate } from "react-router-dom";

/** Organisation admins and gym admins manage gyms; anyone else goes to the dashboard. */
export function GymAdminsOnly({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  if (user && !user.is_organisation_admin && !user.is_gym_admin) return <Navigate to="/dashboard" replace />;
  return <>{children}</>;
}

/** A gym page whose data did not load: not found (also another organisation's id), forbidden, or the server's message. */
export function GymLoadFailure({ error, onRetry }: { error: ApiError; onRetry: () => void }) {
  if (error.status === 404) return <NotFoundPage homeHref="/gyms" homeLabel="Back to gyms" />;
  if (error.status === 403) return <Navigate to="/dashboard" replace />;
  return (
    <Container size="lg" py="lg">
      <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not load the gym">
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
