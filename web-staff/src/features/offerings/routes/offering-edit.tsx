import { managesOffering, useAuth } from "@gym/web/auth";
import { toast } from "@gym/web/toast";
import { PageHeader, PageLoader } from "@gym/web/ui";
import { Alert, Container, Stack } from "@mantine/core";
import { IconLock } from "@tabler/icons-react";
import { useNavigate, useParams } from "react-router-dom";
import { usePageTitle } from "../../../app/page-title";
import { offeringValues } from "../api/forms";
import { updateOffering, useOffering, useOfferingOptions } from "../api/offerings";
import { LoadFailure } from "../components/LoadFailure";
import { OfferingForm } from "../components/OfferingForm";

/** /offerings/{id}/edit. */
export function OfferingEditRoute() {
  const { id } = useParams();
  const navigate = useNavigate();
  const { data: offering, error, mutate } = useOffering(id);
  const { data: options, error: optionsError, mutate: retryOptions } = useOfferingOptions();
  const { user } = useAuth();
  usePageTitle(offering ? `Edit ${offering.name}` : "Edit offering");

  if (error && !offering)
    return <LoadFailure error={error} onRetry={() => void mutate()} what="the offering" />;
  if (optionsError && !options) {
    return <LoadFailure error={optionsError} onRetry={() => void retryOptions()} what="the form" />;
  }
  if (!offering || !options) return <PageLoader />;

  // An offering may keep a type the organisation has since turned off.
  const types = options.types.some((t) => t.value === offering.type)
    ? options.types
    : [...options.types, { value: offering.type, label: offering.type_label }];

  return (
    <Container size="md" py="lg">
      <Stack gap="lg">
        <PageHeader
          title={`Edit ${offering.name}`}
          trail={[
            ["Offerings", "/offerings"],
            [offering.name, `/offerings/${offering.id}`],
          ]}
        />
        {!options.can_manage || !user || !managesOffering(user, offering) ? (
          <Alert color="gray" icon={<IconLock size={18} />} title="You cannot change this offering">
            Organisation admins change any offering; gym admins change offerings limited to the gyms they
            administer.
          </Alert>
        ) : (
          <OfferingForm
            key={offering.updated_at}
            options={{ ...options, types }}
            initialValues={offeringValues(offering)}
            submitLabel="Save offering"
            onCancel={() => navigate(`/offerings/${offering.id}`)}
            onSubmit={async (body) => {
              const saved = await updateOffering(offering.id, body);
              await mutate(saved, { revalidate: false });
              toast.success(`${saved.name} saved`);
              navigate(`/offerings/${saved.id}`);
            }}
          />
        )}
      </Stack>
    </Container>
  );
}

export { OfferingEditRoute as Component };
