import { paymentKindLabels, paymentStatusLabels } from "@gym/core/contract/labels";
import type { GymSummary } from "@gym/web/auth";
import { DateField } from "@gym/web/forms/DateField";
import { Button, Group, Select } from "@mantine/core";
import { emptyFilters, type PaymentFilterValues } from "../api/payments";

const statusOptions = Object.entries(paymentStatusLabels).map(([value, label]) => ({ value, label }));
const typeOptions = Object.entries(paymentKindLabels).map(([value, label]) => ({ value, label }));

/**
 * Status, type, gym and due-date range (day-first date inputs). Changing one applies it at once
 * (and goes back to page 1); a date applies once it is a whole date.
 */
export function PaymentFilters({
  value,
  gyms,
  errors,
  onChange,
}: {
  value: PaymentFilterValues;
  gyms: GymSummary[];
  errors?: Record<string, string[]>;
  onChange: (next: PaymentFilterValues) => void;
}) {
  const set = (patch: Partial<PaymentFilterValues>) => onChange({ ...value, ...patch });
  const active = Object.values(value).some(Boolean);
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <Select
        label="Status"
        placeholder="Any status"
        data={statusOptions}
        value={value.status}
        onChange={(status) => set({ status: status as PaymentFilterValues["status"] })}
        clearable
        // Wide enough for "Awaiting payment" with its clear button, on a phone too.
        w={{ base: "100%", xs: 210 }}
        error={errors?.status?.[0]}
      />
      <Select
        label="Type"
        placeholder="Any type"
        data={typeOptions}
        value={value.type}
        onChange={(type) => set({ type: type as PaymentFilterValues["type"] })}
        clearable
        w={{ base: "100%", xs: 170 }}
        error={errors?.type?.[0]}
      />
      {gyms.length > 1 && (
        <Select
          label="Gym"
          placeholder="All gyms"
          data={gyms.map((g) => ({ value: g.id, label: g.name }))}
          value={value.gym_id}
          onChange={(gym_id) => set({ gym_id })}
          clearable
          w={{ base: "100%", xs: 220 }}
          error={errors?.gym_id?.[0]}
        />
      )}
      <DateField
        label="Due from"
        value={value.from ?? null}
        onChange={(from) => set({ from: from || null })}
        clearable
        w={{ base: "calc(50% - 6px)", xs: 170 }}
        error={errors?.from?.[0]}
      />
      <DateField
        label="Due to"
        value={value.to ?? null}
        onChange={(to) => set({ to: to || null })}
        clearable
        w={{ base: "calc(50% - 6px)", xs: 170 }}
        error={errors?.to?.[0]}
      />
      {active && (
        <Button variant="subtle" onClick={() => onChange(emptyFilters)}>
          Clear filters
        </Button>
      )}
    </Group>
  );
}
