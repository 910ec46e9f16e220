import { managesOffering, useAuth } from "@gym/web/auth";
import { formatDate } from "@gym/web/format";
import { toast, toastApiError } from "@gym/web/toast";
import { PageHeader, PageLoader } from "@gym/web/ui";
import {
  Badge,
  Button,
  Container,
  Group,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { modals } from "@mantine/modals";
import { IconArchive, IconEdit, IconPlus, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { usePageTitle } from "../../../app/page-title";
import { newPriceValues, priceValues } from "../api/forms";
import {
  archiveOffering,
  createPrice,
  deleteOffering,
  type Offering,
  type Price,
  updatePrice,
  useOffering,
  useOfferingOptions,
} from "../api/offerings";
import { LoadFailure } from "../components/LoadFailure";
import { PriceForm } from "../components/PriceForm";
import { PricesTable } from "../components/PricesTable";
import { PrivateLinks } from "../components/PrivateLinks";

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </Stack>
  );
}

function Details({ offering }: { offering: Offering }) {
  const flags = [
    offering.mandated && "Mandated",
    offering.hours_mandated && "Hours mandated",
    offering.prices_mandated && "Prices mandated",
  ].filter(Boolean);
  return (
    <Paper withBorder p="lg">
      <Stack gap="md">
        {offering.description && <Text>{offering.description}</Text>}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Fact label="Gyms">
            {offering.all_gyms_access ? "All gyms" : offering.gyms.map((g) => g.name).join(", ")}
          </Fact>
          <Fact label="Frequencies">{offering.frequencies_formatted}</Fact>
          <Fact label="Flags">{flags.length ? flags.join(", ") : "None"}</Fact>
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

function Hours({ offering }: { offering: Offering }) {
  return (
    <Paper withBorder p="lg">
      <Stack gap="sm">
        <Title order={2} fz="h4">
          Hours
        </Title>
        {offering.hours.length === 0 ? (
          <Text size="sm" c="dimmed">
            No hours set.
          </Text>
        ) : (
          <Table aria-label="Hours" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Day</Table.Th>
                <Table.Th>Opens</Table.Th>
                <Table.Th>Closes</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {offering.hours.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td>{row.day_name}</Table.Td>
                  <Table.Td>{row.open_at_formatted}</Table.Td>
                  <Table.Td>{row.close_at_formatted}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}

type PriceDialog = { kind: "add" } | { kind: "edit"; price: Price } | { kind: "links"; price: Price } | null;

/** /offerings/{id}: details, hours, and the prices with add, edit, archive, restore, delete and private links. */
export function OfferingShowRoute() {
  const { id } = useParams();
  const navigate = useNavigate();
  const { data: offering, error, mutate } = useOffering(id);
  const { data: options } = useOfferingOptions();
  const { user } = useAuth();
  const [dialog, setDialog] = useState<PriceDialog>(null);
  usePageTitle(offering?.name ?? "Offering");

  if (error && !offering)
    return <LoadFailure error={error} onRetry={() => void mutate()} what="the offering" />;
  if (!offering) return <PageLoader />;

  const canManage = Boolean(options?.can_manage && user && managesOffering(user, offering));
  const archived = Boolean(offering.archived_at);
  const refresh = () => void mutate();
  const close = () => setDialog(null);
  const dialogPrice =
    dialog && dialog.kind !== "add" ? offering.prices.find((p) => p.id === dialog.price.id) : undefined;

  const archive = () =>
    modals.openConfirmModal({
      title: "Archive offering",
      children: (
        <Text size="sm">
          {offering.name} will no longer be offered to new members. Members on its prices keep them. Offerings
          cannot be restored.
        </Text>
      ),
      labels: { confirm: "Archive", cancel: "Cancel" },
      onConfirm: async () => {
        try {
          await mutate(await archiveOffering(offering.id), { revalidate: false });
          toast.success(`${offering.name} archived`);
        } catch (e) {
          toastApiError(e, "The offering was not archived");
        }
      },
    });
  const remove = () =>
    modals.openConfirmModal({
      title: "Delete offering",
      children: (
        <Text size="sm">{offering.name} will be deleted with all its prices. This cannot be undone.</Text>
      ),
      labels: { confirm: "Delete", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: async () => {
        try {
          await deleteOffering(offering.id);
          toast.success(`${offering.name} deleted`);
          navigate("/offerings");
        } catch (e) {
          toastApiError(e, "The offering was not deleted");
          refresh();
        }
      },
    });

  const priceOptions = options ?? { billing_frequencies: [], term_units: [] };

  return (
    <Container size="xl" py="lg">
      <Stack gap="lg">
        <PageHeader
          title={offering.name}
          trail={[["Offerings", "/offerings"]]}
          description={offering.subtitle_formatted}
          badges={
            <>
              <Badge variant="light" color={offering.type === "24_7" ? "blue" : "orange"}>
                {offering.type_label}
              </Badge>
              {archived && (
                <Badge variant="light" color="gray">
                  Archived {formatDate(offering.archived_at)}
                </Badge>
              )}
            </>
          }
          actions={
            canManage && (
              <>
                {!archived && (
                  <Button
                    component={Link}
                    to={`/offerings/${offering.id}/edit`}
                    variant="default"
                    leftSection={<IconEdit size={16} />}
                  >
                    Edit
                  </Button>
                )}
                {!archived && (
                  <Button variant="default" leftSection={<IconArchive size={16} />} onClick={archive}>
                    Archive
                  </Button>
                )}
                {offering.can_delete && (
                  <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={remove}>
                    Delete
                  </Button>
                )}
              </>
            )
          }
        />
        <Details offering={offering} />
        {offering.type === "limited_access" && <Hours offering={offering} />}
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={2} fz="h3">
              Prices
            </Title>
            {canManage && !archived && (
              <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: "add" })}>
                Add price
              </Button>
            )}
          </Group>
          <PricesTable
            prices={offering.prices}
            canManage={canManage}
            offeringArchived={archived}
            onEdit={(price) => setDialog({ kind: "edit", price })}
            onLinks={(price) => setDialog({ kind: "links", price })}
            onChanged={refresh}
          />
          {offering.prices.some((p) => p.is_term_membership) && (
            <Text size="xs" c="dimmed">
              Total values of term prices are quoted for a term starting today; a member's start date decides
              theirs.
            </Text>
          )}
        </Stack>
      </Stack>

      <Modal opened={dialog?.kind === "add"} onClose={close} title="Add price" size="lg">
        {dialog?.kind === "add" && (
          <PriceForm
            options={priceOptions}
            initialValues={newPriceValues()}
            submitLabel="Add price"
            onCancel={close}
            onSubmit={async (body) => {
              const price = await createPrice(offering.id, body);
              toast.success(`${price.label} added`);
              close();
              refresh();
            }}
          />
        )}
      </Modal>
      <Modal opened={dialog?.kind === "edit"} onClose={close} title="Edit price" size="lg">
        {dialog?.kind === "edit" && dialogPrice && (
          <PriceForm
            options={priceOptions}
            initialValues={priceValues(dialogPrice)}
            currentFrequency={{ value: dialogPrice.billing_frequency, label: dialogPrice.frequency_label }}
            locked={!dialogPrice.can_delete}
            submitLabel="Save price"
            onCancel={close}
            onSubmit={async (body) => {
              const price = await updatePrice(dialogPrice.id, body);
              toast.success(`${price.label} saved`);
              close();
              refresh();
            }}
          />
        )}
      </Modal>
      <Modal opened={dialog?.kind === "links"} onClose={close} title="Private links" size="lg">
        {dialog?.kind === "links" && dialogPrice && (
          <PrivateLinks
            price={dialogPrice}
            canManage={canManage && !dialogPrice.archived_at}
            onCreated={refresh}
          />
        )}
      </Modal>
    </Container>
  );
}

export { OfferingShowRoute as Component };
