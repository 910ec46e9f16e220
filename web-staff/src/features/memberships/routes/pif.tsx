import { type OnboardPifInput, onboardPifInput } from "@gym/core/contract/lifecycle";
import { administersGym, type CurrentUser, useAuth } from "@gym/web/auth";
import { submitHandler, useZodForm } from "@gym/web/forms";
import { toast } from "@gym/web/toast";
import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { IconCircleCheck, IconLock } from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router-dom";
import { usePageTitle } from "../../../app/page-title";
import { type OnboardedPif, onboardPif, useOrganisationPrices } from "../api/memberships";
import { paymentMethodOptions } from "../components/payment-methods";
import { SubscriptionCard } from "../components/SubscriptionCard";

const blank = (gymId: string | null): OnboardPifInput => ({
  name: "",
  email: "",
  mobile_number: "",
  price_id: "",
  gym_id: gymId ?? "",
  payment_method: "eftpos",
});

/**
 * /members/pif (members.create, spec 001 §2): staff create a member on a pay-in-full price paid by
 * eftpos, cash or bank transfer; the member is emailed a link to finish joining.
 */
export function PifRoute() {
  usePageTitle("Pay in full");
  const { user } = useAuth();
  return user ? <PifPage user={user} /> : null;
}

function PifPage({ user }: { user: CurrentUser }) {
  const organisationId = user.current_organisation?.id ?? null;
  const adminGyms = user.gyms.filter((g) => administersGym(user, g.id));
  const defaultGym = adminGyms.find((g) => g.id === user.current_gym?.id)?.id ?? adminGyms[0]?.id ?? null;
  const { data: prices } = useOrganisationPrices(organisationId);
  const [created, setCreated] = useState<OnboardedPif | null>(null);
  const form = useZodForm({ schema: onboardPifInput, mode: "controlled", initialValues: blank(defaultGym) });
  const pifPrices = (prices ?? []).filter((p) => p.billing_frequency === "one_off" && !p.archived_at);

  const handleSubmit = submitHandler(
    form,
    async (values) => {
      if (!organisationId) return;
      const result = await onboardPif(organisationId, values);
      toast.success(`${result.member.name} added`);
      setCreated(result);
      form.setValues(blank(values.gym_id));
    },
    { errorSummary: "The member was not added" },
  );

  return (
    <Container size="md" py="lg">
      <Stack gap="lg">
        <Stack gap={4}>
          <Anchor component={Link} to="/members" size="sm">
            Members
          </Anchor>
          <Title order={1}>Pay in full</Title>
          <Text c="dimmed">
            Add a member who pays for their whole membership up front, at the desk. They get an email to
            finish joining.
          </Text>
        </Stack>

        {created && (
          <Stack gap="sm">
            <Alert
              color="green"
              icon={<IconCircleCheck size={18} />}
              title={
                created.invitation_pending
                  ? `${created.member.name} is invited`
                  : `${created.member.name} is a member`
              }
            >
              {created.invitation_pending
                ? `We emailed ${created.member.email} an invitation. They become a member, and the payment is recorded with its receipt, when they accept it.`
                : `We emailed ${created.member.email} a link to set their password and finish joining.`}
            </Alert>
            {created.subscription && (
              <SubscriptionCard subscription={created.subscription} canChange={false} onChanged={() => {}} />
            )}
          </Stack>
        )}

        {adminGyms.length === 0 ? (
          <Alert color="gray" icon={<IconLock size={18} />} title="You cannot add members">
            Gym admins and organisation admins add pay-in-full members.
          </Alert>
        ) : (
          <form noValidate onSubmit={handleSubmit} aria-label="Pay-in-full member">
            <Stack gap="md">
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label="Name" withAsterisk autoComplete="off" {...form.getInputProps("name")} />
                <TextInput
                  label="Email"
                  type="email"
                  inputMode="email"
                  withAsterisk
                  autoComplete="off"
                  {...form.getInputProps("email")}
                />
                <TextInput
                  label="Mobile number"
                  type="tel"
                  inputMode="tel"
                  {...form.getInputProps("mobile_number")}
                />
                <Select
                  label="Gym"
                  withAsterisk
                  allowDeselect={false}
                  data={adminGyms.map((g) => ({ value: g.id, label: g.name }))}
                  {...form.getInputProps("gym_id")}
                />
                <Select
                  label="Membership"
                  withAsterisk
                  placeholder={prices ? "Choose a pay-in-full price" : "Loading prices…"}
                  nothingFoundMessage="No pay-in-full prices: add one to an offering first"
                  data={pifPrices.map((p) => ({
                    value: p.id,
                    label: `${p.offering.name}: ${p.formatted_amount}${p.formatted_term ? ` for ${p.formatted_term}` : ""}`,
                  }))}
                  {...form.getInputProps("price_id")}
                />
                <Select
                  label="Paid by"
                  withAsterisk
                  allowDeselect={false}
                  description="A bank transfer waits until you mark it received on Payments."
                  data={paymentMethodOptions}
                  {...form.getInputProps("payment_method")}
                />
              </SimpleGrid>
              <Group justify="flex-end">
                <Button type="submit" loading={form.submitting}>
                  Add member
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Container>
  );
}

export { PifRoute as Component };
