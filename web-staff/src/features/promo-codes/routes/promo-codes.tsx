import type { Offering } from "@gym/core/contract/offering";
import type { PromoCode } from "@gym/core/contract/promo";
import { api, errorMessage, useApi } from "@gym/web/api";
import { toast, toastApiError } from "@gym/web/toast";
import { FormError, PageHeader } from "@gym/web/ui";
import { Button, Container, Modal, Stack, Text } from "@mantine/core";
import { modals } from "@mantine/modals";
import { IconPlus } from "@tabler/icons-react";
import { useState } from "react";
import { usePageTitle } from "../../../app/page-title";
import { newPromoValues, promoValues } from "../api/forms";
import { PromoCodeForm } from "../components/PromoCodeForm";
import { PromoCodesTable } from "../components/PromoCodesTable";

/**
 * /promo-codes: the organisation's promo codes (docs/offers.md "Making a code"), each with what it
 * takes off, its dates, its uses and status; a new code and a change of terms in a dialog, and an
 * archive that says what it does before it does it.
 */
export function PromoCodesRoute() {
  usePageTitle("Promo codes");
  const { data: codes, error, isLoading, mutate } = useApi<PromoCode[]>("/api/promo-codes");
  // What a code may be limited to: a gym, offerings, prices (the API's gym_id, offering_ids, price_ids).
  const { data: gyms } = useApi<{ id: string; name: string }[]>("/api/gyms");
  const { data: offerings } = useApi<Offering[]>("/api/offerings");
  const [dialog, setDialog] = useState<{ kind: "new" } | { kind: "edit"; code: PromoCode } | null>(null);
  const close = () => setDialog(null);
  const saved = async (message: string) => {
    close();
    toast.success(message);
    await mutate();
  };

  const archive = (code: PromoCode) =>
    modals.openConfirmModal({
      title: `Archive ${code.code}`,
      children: (
        <Text size="sm">
          Nobody can join with {code.code} from now on. Members who joined with it keep their discount. An
          archived code cannot be used again.
        </Text>
      ),
      labels: { confirm: "Archive", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: async () => {
        try {
          await api.delete(`/api/promo-codes/${code.id}/archive`);
          toast.success(`${code.code} archived`);
        } catch (caught) {
          toastApiError(caught, `${code.code} was not archived`);
        }
        await mutate();
      },
    });

  const formProps = { gyms: gyms ?? [], offerings: offerings ?? [], onCancel: close };
  return (
    <Container size="xl" py="lg">
      <Stack gap="lg">
        <PageHeader
          title="Promo codes"
          description="Codes members type when they join. A member keeps the discount they joined with, even when a code is changed or archived."
          actions={
            <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: "new" })}>
              New code
            </Button>
          }
        />
        {error && <FormError title="We could not load the codes">{errorMessage(error)}</FormError>}
        <PromoCodesTable
          codes={codes ?? []}
          loading={isLoading && !codes}
          onEdit={(code) => setDialog({ kind: "edit", code })}
          onArchive={archive}
        />
      </Stack>
      <Modal opened={dialog?.kind === "new"} onClose={close} title="New code" size="lg">
        {dialog?.kind === "new" && (
          <PromoCodeForm
            {...formProps}
            initialValues={newPromoValues()}
            submitLabel="Make code"
            onSubmit={async (body) => {
              const made = await api.post<PromoCode>("/api/promo-codes", body);
              await saved(`${made.code} made`);
            }}
          />
        )}
      </Modal>
      <Modal
        opened={dialog?.kind === "edit"}
        onClose={close}
        title={dialog?.kind === "edit" ? `Change ${dialog.code.code}` : "Change code"}
        size="lg"
      >
        {dialog?.kind === "edit" && (
          <Stack gap="md">
            <Text size="sm" c="gray.7">
              New terms reach members who join from now on; members who joined with {dialog.code.code} keep
              theirs.
            </Text>
            <PromoCodeForm
              {...formProps}
              editing
              initialValues={promoValues(dialog.code)}
              submitLabel="Save"
              onSubmit={async (body) => {
                await api.put(`/api/promo-codes/${dialog.code.id}`, body);
                await saved(`${dialog.code.code} changed`);
              }}
            />
          </Stack>
        )}
      </Modal>
    </Container>
  );
}

export { PromoCodesRoute as Component };
