import { toast } from "@gym/web/toast";
import { PageHeader, PageLoader } from "@gym/web/ui";
import { Alert, Container, Stack } from "@mantine/core";
import { IconLock } from "@tabler/icons-react";
import { useNavigate } from "react-router-dom";
import { useSWRConfig } from "swr";
import { usePageTitle } from "../../../app/page-title";
import { newOfferingValues } from "../api/forms";
import { createOffering, useOfferingOptions } from "../api/offerings";
import { LoadFailure } from "../components/LoadFailure";
import { OfferingForm } from "../components/OfferingForm";

/** /offerings/create. */
export function OfferingCreateRoute() {
  usePageTitle("Create offering");
  const navigate = useNavigate();
  const { mutate: revalidate } = useSWRConfig();
  const { data: options, error, mutate } = useOfferingOptions();

  if (error && !options) return <LoadFailure error={error} onRetry={() => void mutate()} what="the form" />;
  if (!options) return <PageLoader />;

  return (
    <Container size="md" py="lg">
      <Stack gap="lg">
        <PageHeader title="Create offering" trail={[["Offerings", "/offerings"]]} />
        {!options.can_manage ? (
          <Alert color="gray" icon={<IconLock size={18} />} title="You cannot create offerings">
            {options.enable_offerings
              ? "Organisation admins and gym admins create offerings."
              : "Offerings are turned off for your organisation. An organisation admin can turn them on in Settings."}
          </Alert>
        ) : (
          <OfferingForm
            options={options}
            initialValues={newOfferingValues()}
            submitLabel="Create offering"
            onCancel={() => navigate("/offerings")}
            onSubmit={async (body) => {
              const offering = await createOffering(body);
              toast.success(`${offering.name} created`);
              void revalidate((key) => Array.isArray(key) && key[0] === "/api/offerings");
              navigate(`/offerings/${offering.id}`);
            }}
          />
        )}
      </Stack>
    </Container>
  );
}

export { OfferingCreateRoute as Component };
