import { accountingMappingInput } from "@gym/core/contract/accounting";
import { useApi } from "@gym/web/api";
import { useAuth } from "@gym/web/auth";
import { submitHandler, useZodForm } from "@gym/web/forms";
import { toast } from "@gym/web/toast";
import { PageLoader } from "@gym/web/ui";
import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { IconInfoCircle } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { usePageTitle } from "../../../app/page-title";
import { type AccountingMappingView, saveAccountingMapping, useAccountingMapping } from "../api/accounting";

interface GymItem {
  id: string;
  name: string;
}

const accounts: { name: keyof AccountingMappingView; label: string; description: string }[] = [
  {
    name: "income_account",
    label: "Membership income",
    description: "Memberships and pay-in-full (Xero: 200 Sales)",
  },
  { name: "joining_fee_account", label: "Joining fees", description: "The joining fee of a first payment" },
  { name: "break_fee_account", label: "Break fees", description: "Ending a term early (260 Other Revenue)" },
  {
    name: "surcharge_account",
    label: "Card surcharges",
    description: "What members pay on top for cards (260)",
  },
  {
    name: "credit_account",
    label: "Member credit held",
    description: "A current liability: money paid ahead",
  },
  { name: "refunds_account", label: "Refunds", description: "Money given back to members" },
  { name: "fees_account", label: "Provider fees", description: "Stripe's and Akahu's fees (404 Bank Fees)" },
  {
    name: "stripe_clearing_account",
    label: "Stripe clearing",
    description: "Card payments until Stripe pays out",
  },
  { name: "akahu_clearing_account", label: "Akahu clearing", description: "Bank payments until they settle" },
  { name: "desk_clearing_account", label: "Desk takings", description: "Cash and EFTPOS until banked" },
  {
    name: "transfer_clearing_account",
    label: "Bank transfers",
    description: "Transfers staff mark received",
  },
  {
    name: "bank_account",
    label: "Bank account",
    description: "Where payouts land (090 Business Bank Account)",
  },
];

const rates: { name: keyof AccountingMappingView; label: string }[] = [
  { name: "income_tax_rate", label: "Tax rate on income" },
  { name: "fees_tax_rate", label: "Tax rate on fees" },
  { name: "no_gst_tax_rate", label: "Tax rate without GST" },
];

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="lg" component="section" aria-label={title}>
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={2} fz="h4">
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}

function MappingForm({
  organisationId,
  mapping,
  gyms,
  onSaved,
}: {
  organisationId: string;
  mapping: AccountingMappingView;
  gyms: GymItem[];
  onSaved: (next: AccountingMappingView) => void;
}) {
  const { is_default: _default, updated_at: _updated, ...values } = mapping;
  const form = useZodForm({
    schema: accountingMappingInput,
    initialValues: {
      ...values,
      tracking_name: values.tracking_name ?? "",
      gyms: gyms.map((gym) => ({
        gym_id: gym.id,
        tracking_option: values.gyms.find((g) => g.gym_id === gym.id)?.tracking_option ?? "",
      })),
    },
  });
  const submit = submitHandler(form, async (input) => {
    onSaved(await saveAccountingMapping(organisationId, input));
    toast.success("Accounts saved");
  });
  return (
    <form noValidate onSubmit={submit} aria-label="Accounts">
      <Stack gap="lg">
        <Section
          title="Accounts"
          description="The code of each account as your Xero chart of accounts shows it."
        >
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {accounts.map((account) => (
              <TextInput
                key={form.key(account.name)}
                label={account.label}
                description={account.description}
                withAsterisk
                {...form.getInputProps(account.name)}
              />
            ))}
          </SimpleGrid>
        </Section>
        <Section title="Tax rates" description="Each rate's full name as Xero's tax settings show it.">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {rates.map((rate) => (
              <TextInput
                key={form.key(rate.name)}
                label={rate.label}
                withAsterisk
                {...form.getInputProps(rate.name)}
              />
            ))}
          </SimpleGrid>
        </Section>
        <Section
          title="Tracking"
          description="Xero's tracking category for gyms, and each gym's option (blank: the gym's name). Leave the category blank to post without tracking."
        >
          <TextInput
            label="Tracking category"
            key={form.key("tracking_name")}
            {...form.getInputProps("tracking_name")}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {gyms.map((gym, i) => (
              <TextInput
                key={form.key(`gyms.${i}.tracking_option`)}
                label={gym.name}
                placeholder={gym.name}
                {...form.getInputProps(`gyms.${i}.tracking_option`)}
              />
            ))}
          </SimpleGrid>
        </Section>
        <Group justify="flex-end">
          <Button type="submit" loading={form.submitting}>
            Save accounts
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /accounting/accounts: the account mapping the Xero journals use (organisation admins). */
export function AccountingAccountsRoute() {
  usePageTitle("Accounts for Xero");
  const { user } = useAuth();
  const organisationId = user?.current_organisation?.id;
  const { data, mutate } = useAccountingMapping(organisationId);
  const { data: gyms } = useApi<GymItem[]>("/api/gyms");
  if (!data || !gyms || !organisationId) return <PageLoader />;
  return (
    <Container size="lg" py="lg">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            Accounts for Xero
          </Title>
          <Text c="dimmed" size="sm">
            Where each kind of money goes in your books.{" "}
            <Anchor component={Link} to="/accounting">
              Export the journals
            </Anchor>
          </Text>
        </Stack>
        {data.is_default && (
          <Alert icon={<IconInfoCircle size={18} />} title="These are the defaults">
            They follow Xero's standard New Zealand chart (200 Sales, 260 Other Revenue, 404 Bank Fees, 090
            Business Bank Account, “15% GST on Income”). Add the clearing accounts (621–624) and the member
            credit liability (835) to your chart, or enter the codes you use, then save.
          </Alert>
        )}
        <MappingForm
          key={data.updated_at ?? "default"}
          organisationId={organisationId}
          mapping={data}
          gyms={gyms}
          onSaved={(next) => void mutate(next, { revalidate: false })}
        />
      </Stack>
    </Container>
  );
}

export { AccountingAccountsRoute as Component };
