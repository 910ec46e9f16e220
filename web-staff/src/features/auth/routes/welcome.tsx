import { Button, List, Stack, Text, ThemeIcon } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconCheck, IconLayoutDashboard, IconLogin, IconMail } from "@tabler/icons-react";
import { Link, useSearchParams } from "react-router-dom";
import { AuthLayout } from "../components/AuthLayout";

/** Where an invited staff member lands after choosing their password. */
export function WelcomeRoute() {
  useDocumentTitle("Welcome · Gym back office");
  const [params] = useSearchParams();
  const email = params.get("email");
  const signIn = email ? `/login?email=${encodeURIComponent(email)}` : "/login";
  return (
    <AuthLayout
      title="Welcome aboard"
      description="Your password is set and your staff account is ready. Here is how signing in works."
    >
      <Stack gap="lg">
        <List spacing="md" center={false}>
          <List.Item
            icon={
              <ThemeIcon size={28} radius="xl" variant="light" aria-hidden>
                <IconLogin size={16} />
              </ThemeIcon>
            }
          >
            <Text size="sm" fw={600}>
              Sign in with your email and new password
            </Text>
            {email && (
              <Text size="sm" c="dimmed">
                {email}
              </Text>
            )}
          </List.Item>
          <List.Item
            icon={
              <ThemeIcon size={28} radius="xl" variant="light" aria-hidden>
                <IconMail size={16} />
              </ThemeIcon>
            }
          >
            <Text size="sm" fw={600}>
              Enter the 6-digit code we email you
            </Text>
            <Text size="sm" c="dimmed">
              Every sign-in is confirmed by a code, so your gym's data stays safe.
            </Text>
          </List.Item>
          <List.Item
            icon={
              <ThemeIcon size={28} radius="xl" variant="light" aria-hidden>
                <IconLayoutDashboard size={16} />
              </ThemeIcon>
            }
          >
            <Text size="sm" fw={600}>
              Start on your dashboard
            </Text>
            <Text size="sm" c="dimmed">
              Members, payments and visits for the gyms you work at.
            </Text>
          </List.Item>
        </List>
        <Button component={Link} to={signIn} size="md" fullWidth leftSection={<IconCheck size={18} />}>
          Sign in
        </Button>
      </Stack>
    </AuthLayout>
  );
}

export { WelcomeRoute as Component };
