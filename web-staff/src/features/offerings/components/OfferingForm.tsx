import { submitHandler, useZodForm } from "@gym/web/forms";
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { TimeInput } from "@mantine/dates";
import { IconAlertCircle, IconPlus, IconTrash } from "@tabler/icons-react";
import {
  DAYS,
  emptyHoursRow,
  type OfferingFormValues,
  type OfferingSubmission,
  offeringFormSchema,
  onFormRows,
} from "../api/forms";
import type { OfferingBody, OfferingOptions } from "../api/offerings";

export interface OfferingFormProps {
  options: OfferingOptions;
  initialValues: OfferingFormValues;
  submitLabel: string;
  /** Saves the offering; a 422's messages land on the fields. */
  onSubmit: (body: OfferingBody) => Promise<unknown>;
  onCancel?: () => void;
}

/**
 * Name, description, type (as the organisation's permissions allow), all-gyms access or a gym
 * selection, the three mandated flags, and for Limited Hours the opening hours: one row per day
 * (a new offering starts with Monday to Sunday, empty), a day left empty is closed.
 */
export function OfferingForm({ options, initialValues, submitLabel, onSubmit, onCancel }: OfferingFormProps) {
  const form = useZodForm({ schema: offeringFormSchema, mode: "controlled", initialValues });
  const values = form.values;
  const limited = values.type === "limited_access";

  const handleSubmit = submitHandler(
    form,
    async ({ body, hourIndexes }: OfferingSubmission) => {
      try {
        await onSubmit(body);
      } catch (error) {
        throw onFormRows(error, hourIndexes);
      }
    },
    { errorSummary: "The offering was not saved" },
  );

  const hoursError = form.errors.hours;

  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Offering">
      <Stack gap="lg">
        <Paper withBorder p="lg">
          <Stack gap="md">
            <Title order={2} fz="h4">
              Details
            </Title>
            <TextInput label="Name" withAsterisk maxLength={255} {...form.getInputProps("name")} />
            <Textarea label="Description" rows={3} {...form.getInputProps("description")} />
            <Select
              label="Type"
              placeholder="Choose a type"
              withAsterisk
              data={options.types}
              allowDeselect={false}
              {...form.getInputProps("type")}
            />
            {options.types.length < 2 && (
              <Text size="sm" c="dimmed">
                Only the types your organisation's offering permissions allow are listed.
              </Text>
            )}
          </Stack>
        </Paper>

        <Paper withBorder p="lg">
          <Stack gap="md">
            <Title order={2} fz="h4">
              Access
            </Title>
            <Switch
              label="Available at all gyms"
              description="Members can use every gym of the organisation, including gyms added later."
              {...form.getInputProps("all_gyms_access", { type: "checkbox" })}
            />
            {!values.all_gyms_access && (
              <MultiSelect
                label="Gyms"
                placeholder="Choose gyms"
                withAsterisk
                data={options.gyms.map((gym) => ({ value: gym.id, label: gym.name }))}
                {...form.getInputProps("gyms")}
              />
            )}
            <Checkbox
              label="Mandated"
              description="Every member of the gym must hold this offering."
              {...form.getInputProps("mandated", { type: "checkbox" })}
            />
            <Checkbox
              label="Hours mandated"
              description="Access is limited to the hours below; a Limited Hours offering then needs at least one day."
              {...form.getInputProps("hours_mandated", { type: "checkbox" })}
            />
            <Checkbox
              label="Prices mandated"
              description="Members must join on one of this offering's prices."
              {...form.getInputProps("prices_mandated", { type: "checkbox" })}
            />
          </Stack>
        </Paper>

        {limited && (
          <Paper withBorder p="lg">
            <Stack gap="md">
              <div>
                <Title order={2} fz="h4">
                  Hours
                </Title>
                <Text size="sm" c="dimmed">
                  Leave both times empty on a day the offering does not open.
                </Text>
              </div>
              {hoursError && (
                <Alert
                  color="red"
                  icon={<IconAlertCircle size={18} />}
                  data-error="true"
                  tabIndex={-1}
                  role="alert"
                  title={hoursError}
                />
              )}
              {values.hours.map((row, index) => (
                <Group
                  key={row.key}
                  align="flex-start"
                  gap="sm"
                  wrap="wrap"
                  aria-label={`Hours row ${index + 1}`}
                  role="group"
                >
                  <Select
                    label="Day"
                    data={DAYS}
                    allowDeselect={false}
                    w={160}
                    {...form.getInputProps(`hours.${index}.day`)}
                  />
                  <TimeInput label="Opens" w={140} {...form.getInputProps(`hours.${index}.open_at`)} />
                  <TimeInput label="Closes" w={140} {...form.getInputProps(`hours.${index}.close_at`)} />
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    mt={28}
                    size="lg"
                    aria-label={`Remove hours row ${index + 1}`}
                    onClick={() => form.removeListItem("hours", index)}
                  >
                    <IconTrash size={18} />
                  </ActionIcon>
                </Group>
              ))}
              <Group>
                <Button
                  variant="default"
                  leftSection={<IconPlus size={16} />}
                  onClick={() => form.insertListItem("hours", emptyHoursRow())}
                >
                  Add hours
                </Button>
              </Group>
            </Stack>
          </Paper>
        )}

        <Group justify="flex-end">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          )}
          <Button type="submit" loading={form.submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
