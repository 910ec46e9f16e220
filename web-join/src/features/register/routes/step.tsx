import { Badge, Paper, Stack, Text, ThemeIcon } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconHammer } from "@tabler/icons-react";
import { useLocation } from "react-router-dom";
import { JoinLayout } from "../../../components/JoinLayout";
import { REGISTRATION_STEPS } from "../steps";

/** A registration step whose screen comes with the registration work: titled, reachable, ordered. */
export function StepRoute() {
  const { pathname } = useLocation();
  const index = REGISTRATION_STEPS.findIndex((step) => step.path === pathname);
  const step = REGISTRATION_STEPS[index] ?? REGISTRATION_STEPS[0];
  useDocumentTitle(`${step.title} · Join`);
  return (
    <JoinLayout title={step.title} description={step.description}>
      <Paper withBorder p="lg">
        <Stack align="center" ta="center" gap="sm">
          <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
            <IconHammer size={24} />
          </ThemeIcon>
          <Badge variant="light" color="gray">
            Coming in the registration work
          </Badge>
          <Text size="sm" c="dimmed">
            This step is not built yet.
          </Text>
        </Stack>
      </Paper>
    </JoinLayout>
  );
}

export { StepRoute as Component };
