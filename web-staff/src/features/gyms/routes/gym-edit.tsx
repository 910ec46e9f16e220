import { useAuth } from "@gym/web/auth";
import { PageLoader } from "@gym/web/ui";
import { Anchor, Breadcrumbs, Container, Group, Stack, Title } from "@mantine/core";
import { Link, useParams } from "react-router-dom";
import { usePageTitle } from "../../../app/page-title";
import { type Gym, useGym } from "../api/gyms";
import { GymLoadFailure } from "../components/Access";
import { DestinationAccountForm } from "../components/DestinationAccountForm";
import { DoorAccess } from "../components/DoorAccess";
import { GymDetailsForm } from "../components/GymDetailsForm";
import { LogoUpload } from "../components/LogoUpload";
import { AkahuForm, BranchForm } from "../components/ProviderForms";
import { Section } from "../components/Section";
import { StripeConnection } from "../components/StripeConnection";
import { TracksVisits } from "../components/TracksVisits";

/**
 * /gyms/{id}/edit (spec 000 §2 "Gym and organisation settings screens"): one section per setting,
 * each saved on its own.
 */
export function GymEditRoute() {
  const { id } = useParams();
  const { user } = useAuth();
  const { data: gym, error, mutate } = useGym(id);
  usePageTitle(gym ? `Edit ${gym.name}` : "Edit gym");
  if (error && !gym) return <GymLoadFailure error={error} onRetry={() => void mutate()} />;
  if (!gym) return <PageLoader />;
  const saved = (next: Gym) => void mutate(next, { revalidate: false });

  return (
    <Container size="lg" py="lg">
      <Stack gap="lg">
        <Stack gap={4}>
          <Breadcrumbs>
            <Anchor component={Link} to="/gyms" size="sm">
              Gyms
            </Anchor>
            <Anchor component={Link} to={`/gyms/${gym.id}`} size="sm">
              {gym.name}
            </Anchor>
          </Breadcrumbs>
          <Group>
            <Title order={1} fz="h2">
              Edit {gym.name}
            </Title>
          </Group>
        </Stack>
        <Section id="details" title="Details">
          <GymDetailsForm key={gym.name} gym={gym} onSaved={saved} />
        </Section>
        <Section
          id="destination-account"
          title="Destination account"
          description="The bank account members' payments are paid into."
        >
          <DestinationAccountForm gym={gym} onSaved={saved} />
        </Section>
        <Section id="logo" title="Logo" description="Shown to members on the join site.">
          <LogoUpload gym={gym} onSaved={saved} />
        </Section>
        <Section
          id="card-payments"
          title="Card payments"
          description="Card payments are taken through the gym's own Stripe account."
        >
          <StripeConnection gym={gym} />
        </Section>
        <Section
          id="doors"
          title="Place and doors"
          description="The Kisi place of this gym, and the doors whose unlocks count as visits."
        >
          <DoorAccess gym={gym} canConnect={Boolean(user?.is_organisation_admin)} onSaved={saved} />
        </Section>
        <Section id="visits" title="Visit tracking">
          <TracksVisits gym={gym} onSaved={saved} />
        </Section>
        <Section
          id="branch"
          title="Branch app"
          description="Links in members' emails open the gym's member app."
        >
          <BranchForm key={`${gym.branch_key}${gym.branch_secret.masked}`} gym={gym} onSaved={saved} />
        </Section>
        <Section
          id="bank-feed"
          title="Bank feed (Akahu)"
          description="The gym's own Akahu app for members paying by bank account. Until one is saved, the platform's app is used."
        >
          <AkahuForm key={`${gym.akahu_app_token}${gym.akahu_app_secret.masked}`} gym={gym} onSaved={saved} />
        </Section>
      </Stack>
    </Container>
  );
}

export { GymEditRoute as Component };
