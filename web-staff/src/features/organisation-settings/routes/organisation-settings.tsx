import { useAuth } from "@gym/web/auth";
import { PageLoader } from "@gym/web/ui";
import { Alert, Button, Container, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { IconAlertCircle } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { Navigate } from "react-router-dom";
import { usePageTitle } from "../../../app/page-title";
import { type OrganisationSettings, useOrganisationSettings, useRegistrationSettings } from "../api/settings";
import { AgeBypassLinks } from "../components/AgeBypassLinks";
import {
  BillingSettingsForm,
  CommunicationsSettingsForm,
  GraceForm,
  NameForm,
  OfferingPermissionsForm,
  PriceFrequenciesForm,
  RegistrationSettingsForm,
} from "../components/SettingsForms";

function Card({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="lg" component="section" aria-label={title}>
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={2} fz="h4">
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

/** /organisation/settings (organisation admins only; others go to /dashboard). */
export function OrganisationSettingsRoute() {
  usePageTitle("Organisation settings");
  const { user } = useAuth();
  const organisationId = user?.current_organisation?.id;
  const { data, error, mutate } = useOrganisationSettings(organisationId);
  const registration = useRegistrationSettings(organisationId);
  if (user && !user.is_organisation_admin) return <Navigate to="/dashboard" replace />;
  if (error && !data) {
    return (
      <Container size="lg" py="lg">
        <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not load the settings">
          {error.message}
          <div>
            <Button mt="sm" variant="light" color="red" onClick={() => void mutate()}>
              Try again
            </Button>
          </div>
        </Alert>
      </Container>
    );
  }
  if (!data) return <PageLoader />;
  const saved = (next: OrganisationSettings) => void mutate(next, { revalidate: false });
  const props = { settings: data, onSaved: saved };
  return (
    <Container size="lg" py="lg">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            Organisation settings
          </Title>
          <Text c="dimmed" size="sm">
            {data.name}: what offerings may be sold, and the rules for payments that fail.
          </Text>
        </Stack>
        <Card title="Organisation">
          <NameForm key={data.name} {...props} />
        </Card>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Card title="Offering permissions" description="Which offerings and access types staff may offer.">
            <OfferingPermissionsForm {...props} />
          </Card>
          <Card title="Price frequencies" description="How often new prices may bill.">
            <PriceFrequenciesForm {...props} />
          </Card>
          <Card
            title="Failed payments"
            description="How long a member keeps access while a failed payment is retried."
          >
            <GraceForm kind="failed_payment" {...props} />
          </Card>
          <Card
            title="Term memberships"
            description="How long after a term ends a member may re-commit at the term price."
          >
            <GraceForm kind="term_membership" {...props} />
          </Card>
        </SimpleGrid>
        <Card
          title="Billing"
          description="Retries, cooling-off, pauses, card surcharge and break fee. Gyms may set their own surcharge and break fee."
        >
          <BillingSettingsForm {...props} />
        </Card>
        <Card
          title="Receipts and reminders"
          description="What receipts say, and how many days before each charge members are reminded."
        >
          <CommunicationsSettingsForm {...props} />
        </Card>
        {registration.data && (
          <Card
            title="Joining online"
            description="Who may sign up on the join site, and the terms they accept."
          >
            <RegistrationSettingsForm
              key={`${registration.data.min_registration_age} ${registration.data.terms_url ?? ""}`}
              organisationId={data.id}
              settings={registration.data}
              onSaved={(next) => void registration.mutate(next, { revalidate: false })}
            />
            <AgeBypassLinks organisationId={data.id} />
          </Card>
        )}
      </Stack>
    </Container>
  );
}

export { OrganisationSettingsRoute as Component };
