import { paymentKindLabels, paymentStatusLabels } from "@gym/core/contract/labels";
import type { GymSummary } from "@gym/web/auth";
import { Button, Group, Select, TextInput } from "@mantine/core";
import { useEffect, useState } from "react";
import { emptyFilters, type PaymentFilterValues } from "../api/payments";

const statusOptions = Object.entries(paymentStatusLabels).map(([value, label]) => ({ value, label }));
const typeOptions = Object.entries(paymentKindLabels).map(([value, label]) => ({ value, label }));

/** Status, type, gym and due-date range. Changing one applies it at once (and goes back to page 1). */
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
  const [from, setFrom] = useState(value.from ?? "");
  const [to, setTo] = useState(value.to ?? "");
  useEffect(() => {
    setFrom(value.from ?? "");
    setTo(value.to ?? "");
  }, [value.from, value.to]);
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
        w={{ base: "calc(50% - 6px)", xs: 180 }}
        error={errors?.status?.[0]}
      />
      <Select
        label="Type"
        placeholder="Any type"
        data={typeOptions}
        value={value.type}
        onChange={(type) => set({ type: type as PaymentFilterValues["type"] })}
        clearable
        w={{ base: "calc(50% - 6px)", xs: 160 }}
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
      <TextInput
        type="date"
        label="Due from"
        value={from}
        onChange={(e) => setFrom(e.currentTarget.value)}
        onBlur={() => from !== (value.from ?? "") && set({ from: from || null })}
        w={{ base: "calc(50% - 6px)", xs: 160 }}
        error={errors?.from?.[0]}
      />
      <TextInput
        type="date"
        label="Due to"
        value={to}
        onChange={(e) => setTo(e.currentTarget.value)}
        onBlur={() => to !== (value.to ?? "") && set({ to: to || null })}
        w={{ base: "calc(50% - 6px)", xs: 160 }}
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
