import { Anchor, Card, SimpleGrid, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconBarbell, IconHeadset, IconShieldLock } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { PublicLayout } from "../components/PublicLayout";
import { PRIVACY_EMAIL, SUPPORT_EMAIL } from "../contact-details";

function ContactCard({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <ThemeIcon size={44} radius="md" variant="light" aria-hidden>
          {icon}
        </ThemeIcon>
        <Title order={2} fz="lg">
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

/** How to reach the right people: members their gym, staff our support, privacy our officer. */
export function ContactUsRoute() {
  useDocumentTitle("Contact us · Gym back office");
  return (
    <PublicLayout>
      <Stack gap="xl">
        <Stack gap={4}>
          <Title order={1} fz={{ base: 28, sm: 36 }}>
            Contact us
          </Title>
          <Text c="dimmed" maw={620}>
            We're a New Zealand team. We answer on working days, 9 am to 5 pm New Zealand time, usually within
            one working day.
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <ContactCard icon={<IconBarbell size={24} />} title="Members">
            <Text size="sm" c="dimmed">
              For your membership, payments, pauses, cancellations or door access, your gym is the fastest
              help: ask at the front desk or reply to any email from your gym.
            </Text>
          </ContactCard>
          <ContactCard icon={<IconHeadset size={24} />} title="Gym staff">
            <Text size="sm" c="dimmed">
              Trouble signing in, a payment question or something not working? Email us with your gym's name
              and what you were doing.
            </Text>
            <Anchor href={`mailto:${SUPPORT_EMAIL}`} fw={600} size="sm">
              {SUPPORT_EMAIL}
            </Anchor>
            <Text size="xs" c="dimmed">
              Locked out?{" "}
              <Anchor component={Link} to="/forgot-password" size="xs">
                Reset your password
              </Anchor>
              .
            </Text>
          </ContactCard>
          <ContactCard icon={<IconShieldLock size={24} />} title="Privacy and security">
            <Text size="sm" c="dimmed">
              To see or correct your information, raise a privacy concern or report a security issue, write to
              our Privacy Officer.
            </Text>
            <Anchor href={`mailto:${PRIVACY_EMAIL}`} fw={600} size="sm">
              {PRIVACY_EMAIL}
            </Anchor>
            <Text size="xs" c="dimmed">
              Read our{" "}
              <Anchor component={Link} to="/legal/privacy-policy" size="xs">
                privacy policy
              </Anchor>
              .
            </Text>
          </ContactCard>
        </SimpleGrid>
      </Stack>
    </PublicLayout>
  );
}

export { ContactUsRoute as Component };
