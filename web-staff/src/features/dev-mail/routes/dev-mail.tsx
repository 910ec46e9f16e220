import { BrandMark } from "@gym/web/ui";
import {
  Alert,
  Badge,
  Button,
  Code,
  Container,
  EmptyState,
  Grid,
  Group,
  Loader,
  Skeleton,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { IconAlertCircle, IconMailOff, IconMailOpened, IconRefresh } from "@tabler/icons-react";
import { useState } from "react";
import { usePageTitle } from "../../../app/page-title";
import { DEV_MAIL_REFRESH_MS, useDevMail } from "../api/mail";
import { MailList } from "../components/MailList";
import { MailViewer } from "../components/MailViewer";

export const NOT_LOCAL_MESSAGE = "The developer mailbox exists only when running locally";

export function DevMailRoute() {
  usePageTitle("Developer mailbox");
  const { data, error, isLoading, isValidating, mutate } = useDevMail();
  const [selectedId, setSelectedId] = useState<string>();

  const mails = [...(data ?? [])].sort((a, b) => b.sent_at.localeCompare(a.sent_at));
  // Follow the newest mail until one is picked.
  const selected = mails.find((mail) => mail.id === selectedId) ?? mails[0];

  let body: React.ReactNode;
  if (error?.status === 404) {
    body = (
      <EmptyState
        mt="xl"
        icon={<IconMailOff size={32} />}
        withIndicatorBackground
        title={NOT_LOCAL_MESSAGE}
        description={
          <>
            Run the product with <Code>npm start</Code> or <Code>npm run dev</Code> to read the emails it
            sends.
          </>
        }
      />
    );
  } else if (error && !data) {
    body = (
      <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not load the mailbox">
        {error.message}
      </Alert>
    );
  } else if (isLoading) {
    body = (
      <Grid>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="xs">
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} h={64} radius="md" />
            ))}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Skeleton h={420} radius="lg" />
        </Grid.Col>
      </Grid>
    );
  } else if (!selected) {
    body = (
      <EmptyState
        mt="xl"
        icon={<IconMailOpened size={32} />}
        withIndicatorBackground
        title="No emails yet"
        description="Invitations, sign-in codes and password resets the app sends appear here."
      />
    );
  } else {
    body = (
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <MailList mails={mails} selectedId={selected.id} onSelect={setSelectedId} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <MailViewer key={selected.id} mail={selected} />
        </Grid.Col>
      </Grid>
    );
  }

  return (
    <Container size="xl" py="lg" component="main">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap={4}>
            <BrandMark size="sm" label="Gym" />
            <Title order={1} fz="h2">
              Developer mailbox
            </Title>
            <Text c="dimmed" size="sm">
              Emails the app sent while running locally. Refreshes every {DEV_MAIL_REFRESH_MS / 1000} seconds.
            </Text>
          </Stack>
          <Group gap="sm">
            {data && (
              <Badge variant="light" size="lg" leftSection={isValidating ? <Loader size={10} /> : undefined}>
                {mails.length} {mails.length === 1 ? "email" : "emails"}
              </Badge>
            )}
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              onClick={() => void mutate()}
              loading={isValidating && !data}
            >
              Refresh
            </Button>
          </Group>
        </Group>
        {body}
      </Stack>
    </Container>
  );
}

export { DevMailRoute as Component };
