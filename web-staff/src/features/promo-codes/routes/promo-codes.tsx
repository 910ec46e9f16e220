import type { Offering } from "@gym/core/contract/offering";
import type { PromoCode } from "@gym/core/contract/promo";
import { api, errorMessage, isApiError, useApi } from "@gym/web/api";
import { FormError } from "@gym/web/ui";
import {
  Badge,
  Button,
  Container,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useState } from "react";
import { usePageTitle } from "../../../app/page-title";

type Errors = Record<string, string[] | undefined>;

const empty = {
  code: "",
  kind: "percent",
  percent: "",
  amount: "",
  periods: "",
  use_limit: "",
  starts_on: "",
  ends_on: "",
  /** "" every gym of the organisation. */
  gym_id: "",
};
/** Empty lists: every offering and price (docs/offers.md "Making a code"). */
const noLimits = { offering_ids: [] as string[], price_ids: [] as string[] };

/** Dollars or a percentage as typed → integer cents or basis points ("12.5" → 1250), or null. */
function hundredths(text: string): number | null {
  const m = /^\s*(\d+)(?:\.(\d{1,2}))?\s*$/.exec(text);
  return m ? Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0")) : null;
}
const whole = (text: string) => (text.trim() ? Number(text) : null);

/**
 * /promo-codes: the organisation's promo codes (docs/offers.md): each with what it takes off, its
 * dates, its uses and status, archived with one click; a form to make one.
 */
export function PromoCodesRoute() {
  usePageTitle("Promo codes");
  const { data: codes, error, mutate } = useApi<PromoCode[]>("/api/promo-codes");
  // What a code may be limited to: a gym, offerings, prices (the API's gym_id, offering_ids, price_ids).
  const { data: gyms } = useApi<{ id: string; name: string }[]>("/api/gyms");
  const { data: offerings } = useApi<Offering[]>("/api/offerings");
  const [form, setForm] = useState(empty);
  const [limits, setLimits] = useState(noLimits);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = (name: keyof typeof empty) => (value: string) => setForm((f) => ({ ...f, [name]: value }));
  const fieldError = (name: string) => errors[name]?.[0];

  const create = async () => {
    setSaving(true);
    setErrors({});
    setFailure(null);
    try {
      await api.post("/api/promo-codes", {
        code: form.code,
        kind: form.kind,
        percent_basis_points: form.kind === "percent" ? hundredths(form.percent) : null,
        amount_off: form.kind === "fixed" ? hundredths(form.amount) : null,
        periods: whole(form.periods),
        use_limit: whole(form.use_limit),
        starts_on: form.starts_on || null,
        ends_on: form.ends_on || null,
        gym_id: form.gym_id || null,
        offering_ids: limits.offering_ids,
        price_ids: limits.price_ids,
      });
      setForm(empty);
      setLimits(noLimits);
      await mutate();
    } catch (caught) {
      if (isApiError(caught) && caught.status === 422) setErrors(caught.errors as Errors);
      else setFailure(errorMessage(caught));
    } finally {
      setSaving(false);
    }
  };

  const archive = async (code: PromoCode) => {
    await api.delete(`/api/promo-codes/${code.id}/archive`);
    await mutate();
  };

  return (
    <Container size="xl" py="lg">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            Promo codes
          </Title>
          <Text c="dimmed" size="sm">
            Codes members type when they join. A member keeps the discount they joined with, even when a code
            is changed or archived.
          </Text>
        </Stack>
        {error && <FormError title="We could not load the codes">{errorMessage(error)}</FormError>}
        <Table striped withTableBorder data-testid="promo-codes">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Code</Table.Th>
              <Table.Th>Discount</Table.Th>
              <Table.Th>Dates</Table.Th>
              <Table.Th>Uses</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(codes ?? []).map((code) => (
              <Table.Tr key={code.id}>
                <Table.Td fw={700}>{code.code}</Table.Td>
                <Table.Td>
                  {code.summary}
                  {code.gym ? ` (${code.gym.name})` : ""}
                </Table.Td>
                <Table.Td>
                  {code.starts_on ?? "any time"} – {code.ends_on ?? "no end"}
                </Table.Td>
                <Table.Td>
                  {code.uses}
                  {code.use_limit != null ? ` of ${code.use_limit}` : ""}
                </Table.Td>
                <Table.Td>
                  <Badge variant="light">{code.status.replace("_", " ")}</Badge>
                </Table.Td>
                <Table.Td>
                  {!code.archived_at && (
                    <Button size="compact-sm" variant="subtle" color="red" onClick={() => void archive(code)}>
                      Archive
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Paper withBorder p="lg">
          <Stack gap="sm">
            <Title order={2} fz="h4">
              New code
            </Title>
            {failure && <FormError title="The code was not made">{failure}</FormError>}
            <TextInput
              label="Code"
              value={form.code}
              onChange={(e) => set("code")(e.currentTarget.value)}
              error={fieldError("code")}
            />
            <SegmentedControl
              value={form.kind}
              onChange={set("kind")}
              data={[
                { value: "percent", label: "Percent off" },
                { value: "fixed", label: "Amount off" },
              ]}
            />
            {form.kind === "percent" ? (
              <TextInput
                label="Percent off"
                value={form.percent}
                onChange={(e) => set("percent")(e.currentTarget.value)}
                error={fieldError("percent_basis_points")}
              />
            ) : (
              <TextInput
                label="Amount off each period ($)"
                value={form.amount}
                onChange={(e) => set("amount")(e.currentTarget.value)}
                error={fieldError("amount_off")}
              />
            )}
            <Group grow>
              <NumberInput
                label="For the first … periods (empty: every period)"
                value={form.periods}
                onChange={(v) => set("periods")(String(v))}
                error={fieldError("periods")}
              />
              <NumberInput
                label="Use limit (empty: none)"
                value={form.use_limit}
                onChange={(v) => set("use_limit")(String(v))}
                error={fieldError("use_limit")}
              />
            </Group>
            <Group grow>
              <TextInput
                label="First day (YYYY-MM-DD)"
                value={form.starts_on}
                onChange={(e) => set("starts_on")(e.currentTarget.value)}
                error={fieldError("starts_on")}
              />
              <TextInput
                label="Last day (YYYY-MM-DD)"
                value={form.ends_on}
                onChange={(e) => set("ends_on")(e.currentTarget.value)}
                error={fieldError("ends_on")}
              />
            </Group>
            <Select
              label="Gym"
              value={form.gym_id}
              onChange={(v) => set("gym_id")(v ?? "")}
              allowDeselect={false}
              data={[
                { value: "", label: "Every gym" },
                ...(gyms ?? []).map((g) => ({ value: g.id, label: g.name })),
              ]}
              error={fieldError("gym_id")}
            />
            <Group grow align="flex-start">
              <MultiSelect
                label="Only for these memberships (empty: every one)"
                value={limits.offering_ids}
                onChange={(offering_ids) => setLimits((l) => ({ ...l, offering_ids }))}
                data={(offerings ?? []).map((o) => ({ value: o.id, label: o.name }))}
                searchable
                error={fieldError("offering_ids")}
              />
              <MultiSelect
                label="Only for these prices (empty: every one)"
                value={limits.price_ids}
                onChange={(price_ids) => setLimits((l) => ({ ...l, price_ids }))}
                data={(offerings ?? []).flatMap((o) =>
                  o.prices.map((p) => ({ value: p.id, label: `${o.name}: ${p.label}` })),
                )}
                searchable
                error={fieldError("price_ids")}
              />
            </Group>
            <Button onClick={() => void create()} loading={saving} w="fit-content">
              Make code
            </Button>
          </Stack>
        </Paper>
      </Stack>
    </Container>
  );
}

export { PromoCodesRoute as Component };
