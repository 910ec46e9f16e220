import { toast, toastApiError } from "@gym/web/toast";
import { wideScreensOnly } from "@gym/web/ui";
import { ActionIcon, Badge, Group, Menu, Stack, Text, Tooltip, VisuallyHidden } from "@mantine/core";
import { modals } from "@mantine/modals";
import {
  IconArchive,
  IconDots,
  IconEdit,
  IconLink,
  IconLock,
  IconRestore,
  IconTrash,
} from "@tabler/icons-react";
import { DataTable } from "mantine-datatable";
import { archivePrice, deletePrice, type Price, restorePrice } from "../api/offerings";

export interface PricesTableProps {
  prices: Price[];
  /** The signed-in person may change prices (admins, offerings on). */
  canManage: boolean;
  /** The offering is archived: its prices cannot be restored. */
  offeringArchived?: boolean;
  onEdit: (price: Price) => void;
  onLinks: (price: Price) => void;
  /** After a price was archived, restored or deleted. */
  onChanged: () => void;
}

function confirmThen(options: {
  title: string;
  message: string;
  confirm: string;
  danger?: boolean;
  action: () => Promise<unknown>;
  done: string;
  failed: string;
  onChanged: () => void;
}) {
  modals.openConfirmModal({
    title: options.title,
    children: <Text size="sm">{options.message}</Text>,
    labels: { confirm: options.confirm, cancel: "Cancel" },
    confirmProps: options.danger ? { color: "red" } : undefined,
    onConfirm: async () => {
      try {
        await options.action();
        toast.success(options.done);
        options.onChanged();
      } catch (error) {
        toastApiError(error, options.failed);
        options.onChanged();
      }
    },
  });
}

/**
 * An offering's prices. Archive for a price members are on, delete only for a price nobody ever
 * subscribed to, restore an archived price; private prices carry their links.
 */
export function PricesTable({
  prices,
  canManage,
  offeringArchived,
  onEdit,
  onLinks,
  onChanged,
}: PricesTableProps) {
  const archive = (price: Price) =>
    confirmThen({
      title: "Archive price",
      message: `${price.label} will no longer be offered to new members. Members on it keep it.`,
      confirm: "Archive",
      action: () => archivePrice(price.id),
      done: `${price.label} archived`,
      failed: "The price was not archived",
      onChanged,
    });
  const remove = (price: Price) =>
    confirmThen({
      title: "Delete price",
      message: `${price.label} will be deleted, with its private links. This cannot be undone.`,
      confirm: "Delete",
      danger: true,
      action: () => deletePrice(price.id),
      done: `${price.label} deleted`,
      failed: "The price was not deleted",
      onChanged,
    });
  const restore = async (price: Price) => {
    try {
      await restorePrice(price.id);
      toast.success(`${price.label} restored`);
    } catch (error) {
      toastApiError(error, "The price was not restored");
    }
    onChanged();
  };

  return (
    <DataTable
      withTableBorder
      borderRadius="md"
      verticalSpacing="sm"
      minHeight={prices.length ? undefined : 160}
      noRecordsText="No prices yet"
      records={prices}
      idAccessor="id"
      // An archived price is told by its "Archived" badge, not by fading the row: a row at 60 %
      // opacity took every text in it below AA contrast (axe, once an archived price was listed).
      aria-label="Prices"
      columns={[
        {
          accessor: "label",
          title: "Price",
          render: (price) => (
            <Stack gap={2}>
              <Group gap={6}>
                <Text fw={600} size="sm">
                  {price.formatted_amount}
                </Text>
                {price.private && (
                  <Badge size="xs" variant="light" color="grape" leftSection={<IconLock size={10} />}>
                    Private
                  </Badge>
                )}
                {price.archived_at && (
                  <Badge size="xs" variant="light" color="gray">
                    Archived
                  </Badge>
                )}
              </Group>
              <Text size="xs" c="dimmed">
                {price.formatted_amount_with_surcharge} by card
              </Text>
            </Stack>
          ),
        },
        { accessor: "frequency_label", title: "Frequency", ...wideScreensOnly },
        {
          accessor: "membership_type",
          title: "Type",
          ...wideScreensOnly,
          render: (price) => (price.visits ? `Pass: ${price.visits} visits` : price.membership_type),
        },
        {
          accessor: "formatted_joining_fee",
          title: "Joining fee",
          ...wideScreensOnly,
          render: (price) => price.formatted_joining_fee ?? "—",
        },
        {
          accessor: "formatted_trial",
          title: "Trial",
          ...wideScreensOnly,
          render: (price) => price.formatted_trial ?? "—",
        },
        {
          accessor: "formatted_total_value",
          title: "Total value",
          ...wideScreensOnly,
          render: (price) =>
            price.formatted_total_value ? (
              <Tooltip label={price.is_term_membership ? "For a term starting today" : "Paid once"} withArrow>
                <Text size="sm" span>
                  {price.formatted_total_value}
                </Text>
              </Tooltip>
            ) : (
              "—"
            ),
        },
        { accessor: "subscriptions_count", title: "Members", textAlign: "right" },
        {
          accessor: "actions",
          title: <VisuallyHidden>Actions</VisuallyHidden>,
          textAlign: "right",
          render: (price) => (
            <Group gap={4} justify="flex-end" wrap="nowrap">
              {(price.private || price.private_links.length > 0) && (
                <Tooltip label="Private links" withArrow>
                  <ActionIcon
                    variant="subtle"
                    aria-label={`Private links for ${price.label}`}
                    onClick={() => onLinks(price)}
                  >
                    <IconLink size={18} />
                  </ActionIcon>
                </Tooltip>
              )}
              {canManage && (
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${price.label}`}>
                      <IconDots size={18} />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    {!price.archived_at && (
                      <Menu.Item leftSection={<IconEdit size={16} />} onClick={() => onEdit(price)}>
                        Edit
                      </Menu.Item>
                    )}
                    {!price.archived_at && (
                      <Menu.Item leftSection={<IconLink size={16} />} onClick={() => onLinks(price)}>
                        Create private link
                      </Menu.Item>
                    )}
                    {price.archived_at ? (
                      <Menu.Item
                        leftSection={<IconRestore size={16} />}
                        disabled={offeringArchived}
                        onClick={() => void restore(price)}
                      >
                        Restore
                      </Menu.Item>
                    ) : (
                      <Menu.Item leftSection={<IconArchive size={16} />} onClick={() => archive(price)}>
                        Archive
                      </Menu.Item>
                    )}
                    {price.can_delete && (
                      <Menu.Item
                        color="red"
                        leftSection={<IconTrash size={16} />}
                        onClick={() => remove(price)}
                      >
                        Delete
                      </Menu.Item>
                    )}
                  </Menu.Dropdown>
                </Menu>
              )}
            </Group>
          ),
        },
      ]}
    />
  );
}
